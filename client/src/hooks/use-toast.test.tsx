import { act, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LazyToaster } from "@/components/ui/lazy-toaster";
import { Toaster } from "@/components/ui/toaster";
import {
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY,
  type ToasterToast,
  toast,
  toastReducer,
  useToast,
} from "./use-toast";

const make = (id: string): ToasterToast => ({ id, title: `Toast ${id}`, open: true });

describe("toastReducer", () => {
  it("keeps one toast: a new one replaces the previous", () => {
    expect(TOAST_LIMIT).toBe(1);
    let state = toastReducer({ toasts: [] }, { type: "ADD_TOAST", toast: make("1") });
    state = toastReducer(state, { type: "ADD_TOAST", toast: make("2") });
    expect(state.toasts.map((t) => t.id)).toEqual(["2"]);
  });

  it("updates, dismisses (closes) and removes", () => {
    let state = toastReducer({ toasts: [] }, { type: "ADD_TOAST", toast: make("1") });
    state = toastReducer(state, { type: "UPDATE_TOAST", toast: { id: "1", title: "Changed" } });
    expect(state.toasts[0]?.title).toBe("Changed");
    state = toastReducer(state, { type: "DISMISS_TOAST", toastId: "1" });
    expect(state.toasts[0]?.open).toBe(false);
    state = toastReducer(state, { type: "REMOVE_TOAST", toastId: "1" });
    expect(state.toasts).toEqual([]);
  });
});

let useToastHandle: ReturnType<typeof useToast> | undefined;
function Capture() {
  useToastHandle = useToast();
  return null;
}

describe("toast()", () => {
  afterEach(() => {
    vi.useRealTimers();
    act(() => useToastHandle?.dismiss());
  });

  it("shows one toast at a time in the live region", async () => {
    render(
      <>
        <Capture />
        <Toaster />
      </>,
    );
    act(() => {
      toast({ title: "First", description: "one" });
    });
    expect(await screen.findByText("First")).toBeTruthy();
    act(() => {
      toast({ title: "Second", description: "two", variant: "destructive" });
    });
    expect(await screen.findByText("Second")).toBeTruthy();
    expect(screen.queryByText("First")).toBeNull();
    expect(screen.getByRole("region").getAttribute("aria-label")).toContain("F8");
  });

  it("removes a dismissed toast after 1,000,000 ms", () => {
    vi.useFakeTimers();
    render(<Capture />);
    let handle: ReturnType<typeof toast> | undefined;
    act(() => {
      handle = toast({ title: "Bye" });
    });
    act(() => handle?.dismiss());
    expect(useToastHandle?.toasts[0]?.open).toBe(false);
    act(() => vi.advanceTimersByTime(TOAST_REMOVE_DELAY - 1));
    expect(useToastHandle?.toasts).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(useToastHandle?.toasts).toHaveLength(0);
    expect(TOAST_REMOVE_DELAY).toBe(1_000_000);
  });
});

describe("LazyToaster", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("mounts the notifications region with the first toast and keeps it once the toast is gone", async () => {
    vi.useFakeTimers();
    render(
      <>
        <Capture />
        <LazyToaster />
      </>,
    );
    // Nothing to show: no region after the page's first seconds (idle callbacks and timers included), so no page
    // loads the toast code while it starts.
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    vi.useRealTimers();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(useToastHandle?.toasts).toHaveLength(0);
    expect(screen.queryByRole("region")).toBeNull();
    act(() => {
      toast({ title: "Saved", description: "Your business details were saved." });
    });
    // The first toast waits for the toaster's chunk.
    expect(await screen.findByText("Saved", {}, { timeout: 10_000 })).toBeTruthy();
    const region = screen.getByRole("region");
    expect(region.getAttribute("aria-label")).toContain("F8");

    vi.useFakeTimers();
    act(() => useToastHandle?.dismiss());
    act(() => vi.advanceTimersByTime(TOAST_REMOVE_DELAY));
    expect(useToastHandle?.toasts).toHaveLength(0);
    expect(screen.queryByText("Saved")).toBeNull();
    expect(screen.getByRole("region")).toBe(region);
  });
});
