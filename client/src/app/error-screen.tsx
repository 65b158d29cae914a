import { TriangleAlert } from "lucide-react";
import { buttonVariants } from "@/components/ui/button-variants";
import { errorText } from "@/lib/error-text";

/** Spec section 2: the generic error screen. */
export function ErrorScreen({ error }: { error?: unknown }) {
  const message = error instanceof Error && error.message ? errorText(error) : "An unexpected error occurred";
  return (
    <div role="alert" className="flex min-h-[70vh] items-center justify-center px-4 py-16">
      <div className="flex w-full max-w-md flex-col items-center gap-4 rounded-xl border border-border bg-card p-8 text-center text-card-foreground shadow-sm">
        <span className="inline-flex size-12 items-center justify-center rounded-full bg-destructive/15 text-destructive-emphasis">
          <TriangleAlert className="size-6" aria-hidden="true" />
        </span>
        <h1 className="font-bold text-2xl tracking-tight">Something went wrong</h1>
        <p className="break-words text-muted-foreground" data-testid="error-message">
          {message}
        </p>
        <button type="button" className={buttonVariants()} onClick={() => window.location.reload()}>
          Try again
        </button>
      </div>
    </div>
  );
}
