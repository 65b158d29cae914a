import { QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, waitFor } from "@testing-library/react";
import type * as React from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "@/lib/query-client";
import { AuthProvider, useAuth } from "./auth-provider";

function Probe() {
  const { user, isLoading, logoutMutation } = useAuth();
  if (isLoading) return <p>loading</p>;
  return (
    <div>
      <p data-testid="user">{user ? user.username : "none"}</p>
      <button type="button" onClick={() => logoutMutation.mutate(undefined)}>
        sign out
      </button>
    </div>
  );
}

function renderWithAuth(ui: React.ReactNode) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthProvider>{ui}</AuthProvider>
    </QueryClientProvider>,
  );
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("AuthProvider", () => {
  it("loads the user from GET /api/user", async () => {
    vi.stubGlobal("fetch", vi.fn().mockResolvedValue(json(200, { username: "ada" })));
    renderWithAuth(<Probe />);
    expect(await screen.findByText("ada")).toBeTruthy();
  });

  it.each([401, 404, 500])("treats a %i answer as signed out", async (status) => {
    vi.stubGlobal("fetch", vi.fn().mockResolvedValue(json(status, { error: { code: "X", message: "x" } })));
    renderWithAuth(<Probe />);
    expect((await screen.findByTestId("user")).textContent).toBe("none");
  });

  it("signs out even when both logout calls fail, and logs the error", async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(json(200, { username: "ada" }))
      .mockResolvedValueOnce(json(500, {}))
      .mockResolvedValueOnce(json(500, {}));
    vi.stubGlobal("fetch", fetchMock);
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    renderWithAuth(<Probe />);
    await screen.findByText("ada");
    act(() => screen.getByText("sign out").click());
    await waitFor(() => expect(screen.getByTestId("user").textContent).toBe("none"));
    expect(fetchMock.mock.calls.map((call) => call[0])).toEqual([
      "/api/user",
      "/api/logout",
      "/api/social-auth/logout",
    ]);
    expect(logged).toHaveBeenCalled();
  });

  it("throws when used outside its provider", () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    expect(() => render(<Probe />)).toThrow("useAuth must be used within an AuthProvider");
  });
});
