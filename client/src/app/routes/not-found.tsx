import { Compass, House } from "lucide-react";
import { Link, useLocation } from "wouter";
import { Button } from "@/components/ui/button";
import { useDocumentTitle } from "@/lib/document-title";

export default function NotFoundPage() {
  const [location] = useLocation();
  useDocumentTitle("Page not found");
  return (
    <div className="mx-auto flex min-h-[70vh] max-w-xl flex-col items-center justify-center gap-5 px-4 py-16 text-center">
      <span className="inline-flex size-14 items-center justify-center rounded-full bg-primary/12 text-primary">
        <Compass className="size-7" aria-hidden="true" />
      </span>
      <p className="font-semibold text-muted-foreground text-sm tabular-nums tracking-wider">404</p>
      <h1 className="font-bold text-3xl tracking-tight sm:text-4xl">Page not found</h1>
      <p className="text-pretty text-muted-foreground">
        There is no page at{" "}
        <code className="break-all rounded bg-muted px-1.5 py-0.5 font-mono">{location}</code>. It may have
        moved, or the link may be mistyped.
      </p>
      <div className="flex w-full max-w-xs flex-col gap-3 sm:w-auto sm:max-w-none sm:flex-row">
        <Button asChild>
          <Link href="/">
            <House aria-hidden="true" />
            Back to home
          </Link>
        </Button>
        <Button asChild variant="outline">
          <Link href="/contact">Contact us</Link>
        </Button>
      </div>
    </div>
  );
}
