import { AppLayout } from "./app-layout";
import { ErrorBoundary } from "./error-boundary";
import { AppProviders } from "./providers";

export function App() {
  return (
    <ErrorBoundary>
      <AppProviders>
        <AppLayout />
      </AppProviders>
    </ErrorBoundary>
  );
}
