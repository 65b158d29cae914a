import { Check, Copy } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { toast } from "@/hooks/use-toast";

/** Copies `value`; the icon turns into a check for a moment and a toast confirms it (announced). */
export function CopyButton({
  value,
  label,
  copiedText,
  ...props
}: Omit<React.ComponentProps<typeof Button>, "value" | "onClick"> & {
  value: string;
  label: string;
  /** Said in the confirmation toast: what to do with the copied text. */
  copiedText?: string;
}) {
  const [copied, setCopied] = React.useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast({ title: `${label} copied`, description: copiedText });
      setTimeout(() => setCopied(false), 1500);
    } catch {
      toast({
        variant: "destructive",
        title: "Could not copy",
        description: "Your browser blocked the clipboard. Select the text and copy it by hand.",
      });
    }
  };
  return (
    <Button type="button" variant="outline" size="sm" onClick={copy} aria-label={`Copy ${label}`} {...props}>
      {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
      <span className="sr-only sm:not-sr-only">{copied ? "Copied" : "Copy"}</span>
    </Button>
  );
}
