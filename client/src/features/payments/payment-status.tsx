import type { PaymentStatus } from "@common/payments";
import { PAYMENT_STATUS_NAMES as N } from "@common/status-names";
import {
  Ban,
  CircleAlert,
  CircleCheck,
  CircleX,
  Clock,
  Hourglass,
  LoaderCircle,
  type LucideIcon,
  TimerOff,
} from "lucide-react";
import { cn } from "@/lib/utils";

type Tone = "neutral" | "progress" | "success" | "warning" | "danger";

/** Names from the one catalogue (common/status-names.ts), with the icon and tone the app shows beside them. */
export const STATUS_INFO: Record<PaymentStatus, { label: string; icon: LucideIcon; tone: Tone }> = {
  pending: { label: N.pending, icon: Clock, tone: "neutral" },
  processing: { label: N.processing, icon: LoaderCircle, tone: "progress" },
  partial: { label: N.partial, icon: CircleAlert, tone: "warning" },
  completed: { label: N.completed, icon: CircleCheck, tone: "success" },
  expired: { label: N.expired, icon: TimerOff, tone: "danger" },
  paid_late: { label: N.paid_late, icon: Hourglass, tone: "success" },
  invalid: { label: N.invalid, icon: CircleX, tone: "danger" },
  cancelled: { label: N.cancelled, icon: Ban, tone: "danger" },
};

/** The same names in the reader's language (catalog ids): a translated page passes `label={t(STATUS_LABEL_ID[s])}`. */
export const STATUS_LABEL_ID = {
  pending: "pay.status.pending",
  processing: "pay.status.processing",
  partial: "pay.status.partial",
  completed: "pay.status.completed",
  expired: "pay.status.expired",
  paid_late: "pay.status.paid_late",
  invalid: "pay.status.invalid",
  cancelled: "pay.status.cancelled",
} as const satisfies Record<PaymentStatus, string>;

const tones: Record<Tone, string> = {
  neutral: "border-border bg-muted text-foreground",
  progress: "border-primary/40 bg-primary/12 text-foreground",
  success: "border-transparent bg-success text-success-foreground",
  warning: "border-transparent bg-warning text-warning-foreground",
  danger: "border-transparent bg-destructive text-destructive-foreground",
};

/** Status as a word and an icon, never colour alone (UI.md). */
export function PaymentStatusBadge({
  status,
  label,
  className,
  ...props
}: React.ComponentProps<"span"> & {
  status: PaymentStatus /** A more precise word for the status. */;
  label?: string;
}) {
  const info = STATUS_INFO[status];
  const Icon = info.icon;
  return (
    <span
      data-slot="payment-status"
      data-status={status}
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full border px-2.5 py-0.5 font-medium text-xs",
        tones[info.tone],
        className,
      )}
      {...props}
    >
      <Icon
        aria-hidden="true"
        className={cn("size-3.5", status === "processing" && "motion-safe:animate-spin")}
      />
      {label ?? info.label}
    </span>
  );
}
