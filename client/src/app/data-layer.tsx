import type { QueryClient } from "@tanstack/react-query";
import * as React from "react";
import type { SessionUser } from "@/features/auth/api/get-user";
import { USER_QUERY_KEY } from "@/features/auth/api/get-user";
import { AuthProvider } from "@/features/auth/auth-provider";
import { ProtectedRoute } from "@/features/auth/components/protected-route";
import { ChallengeHost } from "@/features/challenge/challenge-host";
import { hasSocialLoginState, socialStateAtStart } from "@/features/social/social-keys";
import { liveSocket } from "@/lib/live-socket";
import { queryClient, startMemoryClean } from "@/lib/query-client";
import { QueryProvider } from "@/lib/query-provider";
import { takeServerData } from "@/lib/server-data";

export { runWarmUps } from "@/lib/warm-up";

// A page the server rendered comes with the data it was rendered with: the first render shows the same content
// instead of a loading state (decision 009). The defaults never mark data stale, so nothing is fetched again.
for (const [key, data] of Object.entries(takeServerData())) queryClient.setQueryData([key], data);

/**
 * The server-data layer: TanStack Query and the auth context, loaded beside the shell instead of inside it
 * (decision 006). Every lazy part that needs them (pages, the menu panel) is wrapped by one of the helpers below;
 * the instances share the query client, so the user is fetched once and every one of them sees the same session.
 */
export function DataProviders({ children }: { children?: React.ReactNode }) {
  return (
    <QueryProvider>
      <AuthProvider>{children}</AuthProvider>
    </QueryProvider>
  );
}

/**
 * Mounted once at start: fetches the user (spec section 4), runs the memory-clean routine (section 9), keeps
 * the live socket on the current session, and hosts the Security Verification overlay that a request refused with a
 * challenge waits for (the API client is in this layer, so the shell every page loads does not carry the host).
 */
export function SessionStart() {
  React.useEffect(() => startMemoryClean(queryClient), []);
  React.useEffect(() => followSession(queryClient), []);
  // Spec section 4: the stored social user is restored (a corrupt record deleted) and a real login finished.
  React.useEffect(() => {
    const { storedUser, pendingLogin } = socialStateAtStart();
    if (storedUser || pendingLogin !== null) {
      void import("@/features/social/social-session").then((m) => m.resumeRealLogin());
    }
  }, []);
  return (
    <>
      <DataProviders />
      <ChallengeHost />
    </>
  );
}

/**
 * Calls `changed(previous, next)` (account ids, null when signed out) whenever the signed-in account changes in the
 * page: sign-in at /auth, registration, password reset, Sign in with Ethereum, sign-out, another account. The
 * first answer only sets the starting point.
 */
function onAccountChange(
  client: QueryClient,
  changed: (previous: string | null, next: string | null) => void,
): () => void {
  let account: string | null | undefined;
  return client.getQueryCache().subscribe((event) => {
    if (event.query.queryKey[0] !== USER_QUERY_KEY[0]) return;
    const data = event.query.state.data as SessionUser | null | undefined;
    if (data === undefined) return;
    const next = data?.id ?? null;
    if (account !== undefined && next !== account) changed(account, next);
    account = next;
  });
}

/**
 * The live channel authorises by the session cookie of its upgrade request, so when the account changes the
 * socket connects again and every live feature subscribes anew with the new session. Spec section 4: signing out
 * clears the social user too, whichever way the session ended (the menu's "Sign out", "sign out everywhere").
 */
export function followSession(client: QueryClient): () => void {
  return onAccountChange(client, (previous, next) => {
    liveSocket.reconnect();
    if (previous && next === null && hasSocialLoginState()) {
      void import("@/features/social/social-session").then((m) => m.forgetSocialAccount());
    }
  });
}

export function withDataProviders<P extends object>(
  Component: React.ComponentType<P>,
): React.ComponentType<P> {
  return function WithDataProviders(props: P) {
    return (
      <DataProviders>
        <Component {...props} />
      </DataProviders>
    );
  };
}

/** A page behind the protected route of spec section 2 (spinner, /auth when signed out). */
export function withRequiredUser(Page: React.ComponentType): React.ComponentType {
  return function ProtectedPage() {
    return (
      <DataProviders>
        <ProtectedRoute component={Page} />
      </DataProviders>
    );
  };
}
