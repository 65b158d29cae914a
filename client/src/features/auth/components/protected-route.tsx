import type * as React from "react";
import { Redirect } from "wouter";
import { Spinner } from "@/components/ui/spinner";
import { useAuth } from "../auth-provider";

/** Spec section 2: a spinner while the user loads, /auth when nobody is signed in, otherwise the page. */
export function ProtectedRoute({ component: Component }: { component: React.ComponentType }) {
  const { user, isLoading } = useAuth();
  if (isLoading) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center">
        <Spinner size="lg" label="Checking your session" />
      </div>
    );
  }
  if (!user) return <Redirect to="/auth" replace />;
  return <Component />;
}
