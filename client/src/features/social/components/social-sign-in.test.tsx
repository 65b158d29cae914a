import { QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "@/lib/query-client";
import { SocialSignIn } from "./social-sign-in";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const providers = (mode: string) => ({
  providers: ["google", "facebook", "twitter", "apple"].map((provider) => ({
    provider,
    name: provider,
    mode,
  })),
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("SocialSignIn", () => {
  it("shows Redirecting... and goes to the provider after 1.5 s, coming back to this page", async () => {
    vi.stubGlobal("fetch", vi.fn().mockResolvedValue(json(200, providers("development"))));
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, href: "http://localhost/auth?x=1", assign });
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SocialSignIn />
      </QueryClientProvider>,
    );
    expect(
      await screen.findByText(
        "Providers without credentials open a development sign-in page on this server.",
      ),
    ).toBeTruthy();
    vi.useFakeTimers();
    fireEvent.click(screen.getByRole("button", { name: "Continue with Google" }));
    expect(screen.getByRole("button", { name: /Redirecting\.\.\./ })).toBeTruthy();
    act(() => vi.advanceTimersByTime(1499));
    expect(assign).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(assign).toHaveBeenCalledWith(
      `/api/social-auth/google?enableRealLogin=true&redirectUrl=${encodeURIComponent("http://localhost/auth?x=1")}`,
    );
  });

  it("a provider that is not configured cannot be chosen and says so", async () => {
    vi.stubGlobal("fetch", vi.fn().mockResolvedValue(json(200, providers("unavailable"))));
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SocialSignIn />
      </QueryClientProvider>,
    );
    expect((await screen.findAllByText("not configured")).length).toBe(4);
    expect((screen.getByRole("button", { name: /Continue with Apple/ }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });
});
