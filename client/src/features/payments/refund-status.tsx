import type { RefundStatus } from "@common/refunds";
import { Undo2 } from "lucide-react";
import { cn } from "@/lib/utils";

export const REFUND_LABEL: Record<Exclude<RefundStatus, "none">, string> = {
  partially_refunded: "Partially refunded",
  refunded: "Refunded",
};

/** The same words in the payer's language (catalog ids): the payer's pages pass `label={t(REFUND_LABEL_ID[s])}`. */
export const REFUND_LABEL_ID = {
  partially_refunded: "pay.refund.badge.partiallyRefunded",
  refunded: "pay.refund.badge.refunded",
} as const satisfies Record<Exclude<RefundStatus, "none">, string>;

/**
 * Refunds beside the payment's status (decision 018): a word and an icon, never colour alone. `label`: the word in
 * the reader's language on a translated page (the dashboard's English one otherwise).
 */
export function RefundBadge({
  status,
  label,
  className,
  ...props
}: React.ComponentProps<"span"> & { status: RefundStatus; label?: string | undefined }) {
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
      {label ?? REFUND_LABEL[status]}
    </span>
  );
}
