import * as React from "react";
import { currentChallenge, registerChallengeHost, subscribeChallenge } from "@/lib/challenge-state";

/**
 * The overlay's chunk, with its words in the reader's language: the challenge can meet a visitor on any page, an
 * English one that loaded no catalog too, so it loads its own (the i18n runtime comes with it, never in the shell).
 */
const SecurityVerification = React.lazy(() =>
  Promise.all([
    import("./security-verification"),
    import("@/i18n/i18n").then((i18n) => i18n.prepareMessages(["challenge"])),
  ]).then(([m]) => ({ default: m.SecurityVerification })),
);

/** Mounted once by the layout; loads the overlay only when a request was refused with a challenge. */
export function ChallengeHost() {
  React.useEffect(() => registerChallengeHost(), []);
  const challenge = React.useSyncExternalStore(subscribeChallenge, currentChallenge, () => null);
  if (!challenge) return null;
  return (
    <React.Suspense fallback={null}>
      <SecurityVerification challenge={challenge} />
    </React.Suspense>
  );
}
