import type { CreatedApiKey } from "@common/api-keys";
import { Check, TriangleAlert } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/features/payments/components/copy-button";
import { useCopyWords } from "@/features/payments/copy-words";
import { Rich, useT } from "@/i18n/i18n";

/** The secret of a key just created: shown here once, kept only in this component's state. */
export function NewKeySecret({ apiKey, onDone }: { apiKey: CreatedApiKey; onDone: () => void }) {
  const region = React.useRef<HTMLElement>(null);
  const t = useT();
  const copyWords = useCopyWords();
  // Focus moves to the secret, so a keyboard or screen-reader user lands on what must be copied now.
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new key takes the focus once
  React.useEffect(() => region.current?.focus(), [apiKey.id]);
  return (
    <section
      ref={region}
      tabIndex={-1}
      aria-labelledby="new-key-title"
      data-testid="new-api-key"
      className="mt-4 flex flex-col gap-3 rounded-lg border border-warning/60 bg-warning/10 p-4 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/60"
    >
      <h3 id="new-key-title" className="font-semibold">
        <Rich id="developers.secret.title" values={{ name: <bdi>{apiKey.name}</bdi> }} />
      </h3>
      <p className="flex items-start gap-2 font-medium text-sm">
        <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        {t("developers.secret.warning")}
      </p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <code
          data-testid="api-key-secret"
          dir="ltr"
          className="min-w-0 flex-1 select-all break-all rounded-md border border-border bg-background px-3 py-2 font-mono text-sm"
        >
          {apiKey.secret}
        </code>
        <CopyButton
          value={apiKey.secret}
          label={t("developers.secret.copyLabel")}
          copiedText={t("developers.secret.copiedText")}
          words={copyWords}
          className="self-start sm:self-auto"
        />
      </div>
      <Button type="button" variant="outline" onClick={onDone} className="self-start">
        <Check aria-hidden="true" /> {t("developers.secret.done")}
      </Button>
    </section>
  );
}
