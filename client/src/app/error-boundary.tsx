import * as React from "react";
import { useShellWords } from "@/i18n/shell-words";
import { lazyComponent } from "@/lib/lazy-component";

/**
 * The generic error screen is not part of the first screen of any page: its code (and the error texts it reads)
 * arrives when an error is to be shown, or in idle time once the app has started (`preloadErrorScreen`), so that
 * the shell every page loads stays small (issue 39). If it cannot be fetched either (the network is gone), the
 * boundary says the same thing in plain words.
 */
const ErrorScreen = lazyComponent<{ error?: unknown }>(() =>
  import("./error-screen").then((m) => ({ default: m.ErrorScreen })),
);

export function preloadErrorScreen() {
  ErrorScreen.preload().catch(() => {});
}

interface ErrorBoundaryState {
  error: unknown;
  hasError: boolean;
}

/** Catches render errors, including a lazy page chunk that fails to load, and shows the generic error screen. */
export class ErrorBoundary extends React.Component<{ children: React.ReactNode }, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, hasError: false };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error, hasError: true };
  }

  override render() {
    if (!this.state.hasError) return this.props.children;
    return (
      <ScreenUnavailableBoundary>
        <React.Suspense fallback={null}>
          <ErrorScreen error={this.state.error} />
        </React.Suspense>
      </ScreenUnavailableBoundary>
    );
  }
}

/** Catches a failure to load the error screen's own code. */
class ScreenUnavailableBoundary extends React.Component<{ children: React.ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return <ScreenUnavailable />;
  }
}

function ScreenUnavailable() {
  const { words, attributes } = useShellWords();
  return (
    <div role="alert" className="px-4 py-16 text-center" {...attributes}>
      <h1 className="font-bold text-2xl tracking-tight">{words["shell.errorTitle"]}</h1>
      <p className="mt-2 text-muted-foreground">{words["shell.offline"]}</p>
    </div>
  );
}
