import type { ChallengeLevel, MathChallenge } from "@common/challenge.ts";
import { ShieldCheckIcon } from "lucide-react";
import { Dialog } from "radix-ui";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toast } from "@/hooks/use-toast";
import { languageAttributes, prepareMessages, Rich, type t as translate, useLocale, useT } from "@/i18n/i18n";
import { challengeSolved, replaceChallenge } from "@/lib/challenge-state";
import { type RefusalReason, verifyChallenge } from "./verify-challenge";

/** Spec section 4: the overlay names the level. */
const LEVEL: Record<ChallengeLevel, string> = {
  1: "challenge.levels.easy",
  2: "challenge.levels.basic",
  3: "challenge.levels.medium",
  4: "challenge.levels.hard",
  5: "challenge.levels.extreme",
};

const REFUSAL: Record<Exclude<RefusalReason, "server">, string> = {
  incorrect: "challenge.errors.incorrect",
  invalid: "challenge.errors.invalid",
  rateLimited: "challenge.errors.rateLimited",
  badReply: "challenge.errors.badReply",
  network: "challenge.errors.network",
};

/** The toaster's own labels (its close button, its region) in the overlay's language. */
function toastWords(t: typeof translate) {
  return {
    labels: {
      close: t("challenge.toast.close"),
      notification: t("challenge.toast.notification"),
      region: t("challenge.toast.region", { hotkey: "F8" }),
    },
  };
}

/**
 * The full-screen Security Verification overlay (spec sections 2-5, 8). It cannot be dismissed: the refused
 * request waits behind it and is sent again once the answer is accepted. Radix Dialog traps focus and
 * announces it as a modal dialog.
 */
export function SecurityVerification({ challenge }: { challenge: MathChallenge }) {
  const t = useT();
  const locale = useLocale();
  const language = languageAttributes(locale);
  const [answer, setAnswer] = React.useState("");
  const [error, setError] = React.useState<string | null>(null);
  const [pending, setPending] = React.useState(false);
  const inputRef = React.useRef<HTMLInputElement>(null);

  // Once, when the overlay opens (a language switch meanwhile does not raise it again).
  // biome-ignore lint/correctness/useExhaustiveDependencies: shown once on mount
  React.useEffect(() => {
    toast({
      title: t("challenge.toast.checkTitle"),
      description: t("challenge.toast.checkText"),
      ...language,
      ...toastWords(t),
    });
  }, []);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (pending) return;
    if (answer.trim() === "") {
      setError(t("challenge.errors.empty"));
      inputRef.current?.focus();
      return;
    }
    setPending(true);
    setError(null);
    const outcome = await verifyChallenge(challenge.token, answer.trim());
    setPending(false);
    if (outcome.ok) {
      toast({
        title: t("challenge.toast.successTitle"),
        description: t("challenge.toast.successText"),
        ...language,
        ...toastWords(t),
      });
      challengeSolved();
      return;
    }
    const message =
      outcome.reason === "server" && outcome.serverMessage
        ? outcome.serverMessage
        : t(REFUSAL[outcome.reason === "server" ? "incorrect" : outcome.reason]);
    setError(message);
    if (outcome.wrongAnswer) {
      toast({
        title: t("challenge.toast.failedTitle"),
        description: message,
        variant: "destructive",
        ...language,
        ...toastWords(t),
      });
    }
    if (outcome.challenge) {
      replaceChallenge(outcome.challenge);
      setAnswer("");
    }
    inputRef.current?.focus();
  }

  const level = challenge.level;
  return (
    <Dialog.Root open>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[90] bg-background/95 backdrop-blur-sm" />
        <Dialog.Content
          data-testid="security-verification"
          {...language}
          className="fixed inset-0 z-[91] flex items-center justify-center p-4 outline-none"
          onEscapeKeyDown={(event) => event.preventDefault()}
          onPointerDownOutside={(event) => event.preventDefault()}
          onInteractOutside={(event) => event.preventDefault()}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            inputRef.current?.focus();
          }}
        >
          <div className="w-full max-w-sm rounded-xl border border-border bg-card p-6 text-card-foreground shadow-xl">
            <div className="mb-4 flex items-center gap-3">
              <ShieldCheckIcon className="size-7 text-primary" aria-hidden="true" />
              <Dialog.Title className="font-semibold text-xl">{t("challenge.title")}</Dialog.Title>
            </div>
            <Dialog.Description asChild>
              <div>
                <p className="text-muted-foreground text-sm">{t("challenge.prompt")}</p>
                <p
                  className="my-3 text-center font-mono font-semibold text-3xl"
                  data-testid="challenge-equation"
                  dir="ltr"
                >
                  {challenge.equation}
                </p>
                <p className="text-muted-foreground text-sm">
                  <Rich
                    id="challenge.level"
                    values={{
                      level: <span className="font-medium text-foreground">{t(LEVEL[level])}</span>,
                    }}
                  />
                </p>
              </div>
            </Dialog.Description>
            <form className="mt-4 flex flex-col gap-3" onSubmit={submit} noValidate>
              <label htmlFor="challenge-answer" className="sr-only">
                {t("challenge.answerLabel")}
              </label>
              <Input
                id="challenge-answer"
                ref={inputRef}
                type="number"
                inputMode="numeric"
                autoComplete="off"
                value={answer}
                onChange={(event) => {
                  setAnswer(event.target.value);
                  if (error) setError(null);
                }}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? "challenge-error" : undefined}
                readOnly={pending}
              />
              {error && (
                <p id="challenge-error" role="alert" className="text-destructive text-sm">
                  {error}
                </p>
              )}
              <Button type="submit" disabled={pending}>
                {pending ? t("challenge.verifying") : t("challenge.submit")}
              </Button>
            </form>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * The overlay, once its words are loaded in the reader's language (the language of the page, else their choice or
 * their browser's): for the host's lazy import, so it never shows a word before its language is there.
 */
export function withWords(): Promise<{ default: typeof SecurityVerification }> {
  return prepareMessages(["challenge"]).then(() => ({ default: SecurityVerification }));
}
