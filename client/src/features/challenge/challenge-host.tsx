import * as React from "react";
import { currentChallenge, registerChallengeHost, subscribeChallenge } from "@/lib/challenge-state";

const SecurityVerification = React.lazy(() =>
  import("./security-verification").then((m) => ({ default: m.SecurityVerification })),
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
