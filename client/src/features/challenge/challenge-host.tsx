import * as React from "react";
import { currentChallenge, registerChallengeHost, subscribeChallenge } from "@/lib/challenge-state";

/**
 * The overlay's chunk, with its words in the reader's language: the challenge can meet a visitor on any page, an
 * English one that loaded no catalog too, so its chunk (which brings the i18n runtime, never in the shell) loads
 * its own before it shows.
 */
const SecurityVerification = React.lazy(() => import("./security-verification").then((m) => m.withWords()));

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
