import { CircleAlert } from "lucide-react";
import { cn } from "@/lib/utils";

/**
 * A problem with the whole form (a wrong password, a refused request), shown at the form where the eye is, in
 * the server's words. Announced when it appears; nothing is rendered without a message.
 */
export function FormError({
  message,
  className,
}: {
  message?: string | null | undefined;
  className?: string;
}) {
  if (!message) return null;
  return (
    <p
      role="alert"
      data-slot="form-error"
      className={cn("flex items-start gap-2 font-medium text-destructive-emphasis text-sm", className)}
    >
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>{message}</span>
    </p>
  );
}
