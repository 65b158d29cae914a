import * as React from "react";
import { AuthProvider } from "@/features/auth/auth-provider";
import { ProtectedRoute } from "@/features/auth/components/protected-route";
import { queryClient, startMemoryClean } from "@/lib/query-client";
import { QueryProvider } from "@/lib/query-provider";
import { takeServerData } from "@/lib/server-data";

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

/** Mounted once at start: fetches the user (spec section 4) and runs the memory-clean routine (section 9). */
export function SessionStart() {
  React.useEffect(() => startMemoryClean(queryClient), []);
  return <DataProviders />;
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
