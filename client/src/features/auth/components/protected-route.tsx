import type * as React from "react";
import { Redirect } from "wouter";
import { Spinner } from "@/components/ui/spinner";
import { useShellWords } from "@/i18n/shell-words";
import { useAuth } from "../auth-provider";

/** Spec section 2: a spinner while the user loads, /auth when nobody is signed in, otherwise the page. */
export function ProtectedRoute({ component: Component }: { component: React.ComponentType }) {
  const { user, isLoading } = useAuth();
  const { words, attributes } = useShellWords();
  if (isLoading) {
    return (
      <div className="flex min-h-[50vh] items-center justify-center" {...attributes}>
        <Spinner size="lg" label={words["shell.checkingSession"]} />
      </div>
    );
  }
  if (!user) return <Redirect to="/auth" replace />;
  return <Component />;
}
