import type { RefundStatus } from "@common/refunds";
import { Undo2 } from "lucide-react";
import { cn } from "@/lib/utils";

export const REFUND_LABEL: Record<Exclude<RefundStatus, "none">, string> = {
  partially_refunded: "Partially refunded",
  refunded: "Refunded",
};

/** Refunds beside the payment's status (decision 018): a word and an icon, never colour alone. */
export function RefundBadge({
  status,
  className,
  ...props
}: React.ComponentProps<"span"> & { status: RefundStatus }) {
  if (status === "none") return null;
  return (
    <span
      data-slot="refund-status"
      data-refund-status={status}
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full border border-border bg-muted px-2.5 py-0.5 font-medium text-foreground text-xs",
        className,
      )}
      {...props}
    >
      <Undo2 aria-hidden="true" className="size-3.5" />
      {REFUND_LABEL[status]}
    </span>
  );
}
