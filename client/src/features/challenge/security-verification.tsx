import { challengeLevelNames, type MathChallenge } from "@common/challenge.ts";
import { ShieldCheckIcon } from "lucide-react";
import { Dialog } from "radix-ui";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { toast } from "@/hooks/use-toast";
import { challengeSolved, replaceChallenge } from "@/lib/challenge-state";
import { MESSAGES, verifyChallenge } from "./verify-challenge";

/**
 * The full-screen Security Verification overlay (spec sections 2-5, 8). It cannot be dismissed: the refused
 * request waits behind it and is sent again once the answer is accepted. Radix Dialog traps focus and
 * announces it as a modal dialog.
 */
export function SecurityVerification({ challenge }: { challenge: MathChallenge }) {
  const [answer, setAnswer] = React.useState("");
  const [error, setError] = React.useState<string | null>(null);
  const [pending, setPending] = React.useState(false);
  const inputRef = React.useRef<HTMLInputElement>(null);

  React.useEffect(() => {
    toast({ title: "Security Check", description: "Please solve the quick math problem to continue" });
  }, []);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (pending) return;
    if (answer.trim() === "") {
      setError(MESSAGES.empty);
      inputRef.current?.focus();
      return;
    }
    setPending(true);
    setError(null);
    const outcome = await verifyChallenge(challenge.token, answer.trim());
    setPending(false);
    if (outcome.ok) {
      toast({ title: "Verification Successful", description: "Thank you. You can continue." });
      challengeSolved();
      return;
    }
    setError(outcome.message);
    if (outcome.wrongAnswer) {
      toast({ title: "Challenge Failed", description: outcome.message, variant: "destructive" });
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
              <Dialog.Title className="font-semibold text-xl">Security Verification</Dialog.Title>
            </div>
            <Dialog.Description asChild>
              <div>
                <p className="text-muted-foreground text-sm">Solve this equation:</p>
                <p
                  className="my-3 text-center font-mono font-semibold text-3xl"
                  data-testid="challenge-equation"
                >
                  {challenge.equation}
                </p>
                <p className="text-muted-foreground text-sm">
                  Security Level:{" "}
                  <span className="font-medium text-foreground">{challengeLevelNames[level]}</span>
                </p>
              </div>
            </Dialog.Description>
            <form className="mt-4 flex flex-col gap-3" onSubmit={submit} noValidate>
              <label htmlFor="challenge-answer" className="sr-only">
                Your answer
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
                {pending ? "Verifying..." : "Submit Answer"}
              </Button>
            </form>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
