import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TOAST_REMOVE_DELAY, toast, useToast } from "@/hooks/use-toast";
import { LazyToaster } from "./lazy-toaster";

let handle: ReturnType<typeof useToast> | undefined;
function Capture() {
  handle = useToast();
  return null;
}

describe("LazyToaster", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("mounts the notifications region with the first toast and keeps it once the toast is gone", async () => {
    render(
      <>
        <Capture />
        <LazyToaster />
      </>,
    );
    // Nothing to show: no region, so no page loads the toast code in its first seconds.
    expect(screen.queryByRole("region")).toBeNull();
    act(() => {
      toast({ title: "Saved", description: "Your business details were saved." });
    });
    // The first toast waits for the toaster's chunk.
    expect(await screen.findByText("Saved", {}, { timeout: 10_000 })).toBeTruthy();
    const region = screen.getByRole("region");
    expect(region.getAttribute("aria-label")).toContain("F8");

    vi.useFakeTimers();
    act(() => handle?.dismiss());
    act(() => vi.advanceTimersByTime(TOAST_REMOVE_DELAY));
    expect(handle?.toasts).toHaveLength(0);
    expect(screen.queryByText("Saved")).toBeNull();
    expect(screen.getByRole("region")).toBe(region);
  });
});
