import type { PaymentStatus } from "@common/payments";
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

export const STATUS_INFO: Record<PaymentStatus, { label: string; icon: LucideIcon; tone: Tone }> = {
  pending: { label: "Awaiting payment", icon: Clock, tone: "neutral" },
  processing: { label: "Confirming", icon: LoaderCircle, tone: "progress" },
  partial: { label: "Partially paid", icon: CircleAlert, tone: "warning" },
  completed: { label: "Paid", icon: CircleCheck, tone: "success" },
  expired: { label: "Expired", icon: TimerOff, tone: "danger" },
  paid_late: { label: "Paid late", icon: Hourglass, tone: "success" },
  invalid: { label: "Invalid", icon: CircleX, tone: "danger" },
  cancelled: { label: "Cancelled", icon: Ban, tone: "danger" },
};

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
