import { QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "@/lib/query-client";
import { useDetectionHealthy } from "./get-detection-health";

function Probe() {
  const healthy = useDetectionHealthy();
  return (
    <p data-testid="detection">{healthy === undefined ? "unknown" : healthy ? "healthy" : "not healthy"}</p>
  );
}

/** An answer of GET /api/ready (its body read at once: a real Response's stream waits for real time). */
const answer = (status: number, body: unknown) => ({ ok: status === 200, status, json: async () => body });
const ready = (healthy: boolean) =>
  answer(200, { status: "ready", indexer: { healthy, role: healthy ? "leader" : "stopped" } });

/** Lets the timers run `ms` further, then what the answers they started scheduled (the query's notifications). */
async function elapse(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
  await act(() => vi.advanceTimersByTimeAsync(1));
}

/** Renders the probe with `fetchMock` answering, and lets the first answer arrive. */
async function renderWithAnswers(fetchMock: ReturnType<typeof vi.fn>) {
  vi.stubGlobal("fetch", fetchMock);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <Probe />
    </QueryClientProvider>,
  );
  await elapse(0);
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("useDetectionHealthy", () => {
  it("asks again within seconds while detection is not healthy (e.g. just after a server start)", async () => {
    const fetchMock = vi.fn().mockResolvedValueOnce(ready(false)).mockResolvedValue(ready(true));
    await renderWithAnswers(fetchMock);
    expect(screen.getByTestId("detection").textContent).toBe("not healthy");
    await elapse(3_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId("detection").textContent).toBe("healthy");
    // Healthy: the next check is 15 s later, not 3.
    await elapse(14_000);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await elapse(1_000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it("is unknown until the server has answered, not unhealthy", async () => {
    let answerNow = (_: unknown) => {};
    await renderWithAnswers(vi.fn().mockReturnValue(new Promise((resolve) => (answerNow = resolve))));
    expect(screen.getByTestId("detection").textContent).toBe("unknown");
    answerNow(ready(true));
    await elapse(0);
    expect(screen.getByTestId("detection").textContent).toBe("healthy");
  });

  it("treats a failed answer as not healthy and asks again soon", async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(answer(503, { error: { code: "SERVICE_UNAVAILABLE", message: "x" } }))
      .mockResolvedValue(ready(true));
    await renderWithAnswers(fetchMock);
    expect(screen.getByTestId("detection").textContent).toBe("not healthy");
    await elapse(3_000);
    expect(screen.getByTestId("detection").textContent).toBe("healthy");
  });

  it("treats an unreachable server as not healthy", async () => {
    await renderWithAnswers(vi.fn().mockRejectedValue(new TypeError("Failed to fetch")));
    expect(screen.getByTestId("detection").textContent).toBe("not healthy");
  });
});
