import { useLocation } from "wouter";
import { ShellLanguage } from "@/i18n/shell-words";
import { AppLayout } from "./app-layout";
import { ErrorBoundary } from "./error-boundary";
import { AppProviders } from "./providers";
import { pageFor } from "./router";

/** The shell (frame, toaster) speaks the page's language when the page has words of its own (shell-words.tsx). */
function PageLanguage({ children }: { children: React.ReactNode }) {
  const [location] = useLocation();
  return <ShellLanguage withWords={pageFor(location).areas.length > 0}>{children}</ShellLanguage>;
}

export function App() {
  return (
    <ErrorBoundary>
      <PageLanguage>
        <AppProviders>
          <AppLayout />
        </AppProviders>
      </PageLanguage>
    </ErrorBoundary>
  );
}
