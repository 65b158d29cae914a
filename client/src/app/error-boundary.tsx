import * as React from "react";
import { ErrorScreen } from "./error-screen";

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
    if (this.state.hasError) return <ErrorScreen error={this.state.error} />;
    return this.props.children;
  }
}
