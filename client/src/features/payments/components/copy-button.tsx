import { Check, Copy } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { type ToastLabels, toast } from "@/hooks/use-toast";

/** The button's own words: English unless a translated page passes its reader's (decision 038). */
export type CopyWords = {
  copy: string;
  copied: string;
  copyLabel: (label: string) => string;
  copiedLabel: (label: string) => string;
  failedTitle: string;
  failedText: string;
  /** The toaster's own labels and the toast's language (a translated page's; English when left out). */
  toast?: { labels: ToastLabels; lang: string; dir: "ltr" | "rtl" };
};

const ENGLISH: CopyWords = {
  copy: "Copy",
  copied: "Copied",
  copyLabel: (label) => `Copy ${label}`,
  copiedLabel: (label) => `${label} copied`,
  failedTitle: "Could not copy",
  failedText: "Your browser blocked the clipboard. Select the text and copy it by hand.",
};

/** Copies `value`; the icon turns into a check for a moment and a toast confirms it (announced). */
export function CopyButton({
  value,
  label,
  copiedText,
  words = ENGLISH,
  ...props
}: Omit<React.ComponentProps<typeof Button>, "value" | "onClick"> & {
  value: string;
  label: string;
  /** Said in the confirmation toast: what to do with the copied text. */
  copiedText?: string;
  words?: CopyWords;
}) {
  const [copied, setCopied] = React.useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast({ title: words.copiedLabel(label), description: copiedText, ...words.toast });
      setTimeout(() => setCopied(false), 1500);
    } catch {
      toast({
        variant: "destructive",
        title: words.failedTitle,
        description: words.failedText,
        ...words.toast,
      });
    }
  };
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      onClick={copy}
      aria-label={words.copyLabel(label)}
      {...props}
    >
      {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
      <span className="sr-only sm:not-sr-only">{copied ? words.copied : words.copy}</span>
    </Button>
  );
}
