import { Activity, CircleAlert, LoaderCircle } from "lucide-react";
import type * as React from "react";
import { useT } from "@/i18n/i18n";
import type { LiveState } from "@/lib/live-socket";

type Status = "active" | "connecting" | "reconnecting" | "catching-up";

/**
 * Where detection stands for this page: the indexer's health (`detecting`, undefined until the server has answered)
 * and whether the page hears its payments live. A warning is for a problem seen, not for the moment it takes to
 * ask: until both are known the page is "connecting" (the warnings flashed on every load).
 */
export function detectionStatus(live: LiveState, detecting: boolean | undefined): Status {
  if (live === "lost") return "reconnecting";
  if (detecting === false) return "catching-up";
  return live === "live" && detecting === true ? "active" : "connecting";
}

const warning = <CircleAlert aria-hidden="true" className="size-4 shrink-0 text-destructive-emphasis" />;

// "Connecting" takes one line, as "active" does: on a phone the page below does not move when it turns active.
// `text`: the message's id in the "merchant" area.
const LINES: Record<Status, { icon: React.ReactNode; text: string }> = {
  active: {
    icon: <Activity aria-hidden="true" className="size-4 shrink-0 text-success" />,
    text: "merchant.detection.active",
  },
  connecting: {
    icon: (
      <LoaderCircle
        aria-hidden="true"
        className="size-4 shrink-0 animate-spin text-muted-foreground motion-reduce:animate-none"
      />
    ),
    text: "merchant.detection.connecting",
  },
  reconnecting: { icon: warning, text: "merchant.detection.reconnecting" },
  "catching-up": { icon: warning, text: "merchant.detection.catchingUp" },
};

/** The dashboard's line on payment detection. */
export function DetectionStatus({ live, detecting }: { live: LiveState; detecting: boolean | undefined }) {
  const { icon, text } = LINES[detectionStatus(live, detecting)];
  const t = useT();
  return (
    <p className="flex items-center gap-2 text-sm" role="status" data-testid="detection-status">
      {icon} {t(text)}
    </p>
  );
}
