import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useLivePayment } from "./use-live-payment";

/** The browser's WebSocket as far as the live socket uses it; the test opens and closes it. */
class StandInSocket {
  static last: StandInSocket | null = null;
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  readyState = StandInSocket.CONNECTING;
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  constructor(readonly url: string) {
    StandInSocket.last = this;
  }
  send() {}
  close() {}
  open() {
    this.readyState = StandInSocket.OPEN;
    this.onopen?.();
  }
  drop() {
    this.readyState = 3;
    this.onclose?.();
  }
}

function Probe() {
  return <p data-testid="live">{useLivePayment("AAAAAAAAAAAAAAAAAAAAAA")}</p>;
}

beforeEach(() => {
  vi.stubGlobal("WebSocket", StandInSocket);
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("useLivePayment", () => {
  it("is connecting until the socket first opens, and lost only once an open socket closed", () => {
    const { unmount } = render(<Probe />);
    const text = () => screen.getByTestId("live").textContent;
    expect(text()).toBe("connecting");
    const first = StandInSocket.last!;
    act(() => first.drop());
    expect(text()).toBe("connecting");
    act(() => vi.runOnlyPendingTimers()); // the retry
    const second = StandInSocket.last!;
    expect(second).not.toBe(first);
    act(() => second.open());
    expect(text()).toBe("live");
    act(() => second.drop());
    expect(text()).toBe("lost");
    unmount();
  });
});
