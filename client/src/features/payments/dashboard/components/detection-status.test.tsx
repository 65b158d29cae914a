import { render, screen } from "@testing-library/react";
import { beforeAll, describe, expect, it } from "vitest";
import { chooseLanguage, loadMessages } from "@/i18n/i18n";
import { DetectionStatus, detectionStatus } from "./detection-status";

// The dashboard loads its words before it renders (lazy-pages.ts): here, in English.
beforeAll(async () => {
  await loadMessages("en", ["merchant"]);
  await chooseLanguage("en", { remember: false });
});

describe("detectionStatus", () => {
  it("is connecting, not a warning, until the socket and the server have both answered", () => {
    expect(detectionStatus("connecting", undefined)).toBe("connecting");
    expect(detectionStatus("live", undefined)).toBe("connecting");
    expect(detectionStatus("connecting", true)).toBe("connecting");
    expect(detectionStatus("live", true)).toBe("active");
  });

  it("warns of a problem seen: a lost subscription first, then an indexer behind", () => {
    expect(detectionStatus("connecting", false)).toBe("catching-up");
    expect(detectionStatus("live", false)).toBe("catching-up");
    expect(detectionStatus("lost", true)).toBe("reconnecting");
    expect(detectionStatus("lost", false)).toBe("reconnecting");
    expect(detectionStatus("lost", undefined)).toBe("reconnecting");
  });

  it("says each in words", () => {
    const { rerender } = render(<DetectionStatus live="connecting" detecting={undefined} />);
    expect(screen.getByRole("status").textContent).toBe(" Connecting to payment detection…");
    rerender(<DetectionStatus live="live" detecting={true} />);
    expect(screen.getByRole("status").textContent).toBe(" Automatic Payment Detection Active");
    rerender(<DetectionStatus live="live" detecting={false} />);
    expect(screen.getByRole("status").textContent).toContain("catching up");
    rerender(<DetectionStatus live="lost" detecting={true} />);
    expect(screen.getByRole("status").textContent).toBe(" Reconnecting live updates…");
  });
});
