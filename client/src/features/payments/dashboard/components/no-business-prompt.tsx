import { Plus } from "lucide-react";
import { Link } from "wouter";
import { Button } from "@/components/ui/button";

/**
 * What a page built on the business shows before one is registered: why it needs one, and where to go. Its words
 * are English unless a translated page passes its own.
 */
export function NoBusinessPrompt({
  reason,
  title = "No business registered yet",
  action = "Register your business",
}: {
  reason: string;
  title?: string;
  action?: string;
}) {
  return (
    <div className="flex flex-col items-start gap-3 rounded-xl border border-border bg-card p-4 sm:p-6">
      <p className="font-semibold">{title}</p>
      <p className="text-muted-foreground text-sm">{reason}</p>
      <Button asChild>
        <Link href="/merchant">
          <Plus aria-hidden="true" /> {action}
        </Link>
      </Button>
    </div>
  );
}
