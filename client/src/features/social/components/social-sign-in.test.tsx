import { QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "@/lib/query-client";
import { PENDING_REAL_LOGIN_KEY } from "../social-keys";
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
    // Remembered, so the page can finish the login (and reload) when the browser comes back.
    expect(sessionStorage.getItem(PENDING_REAL_LOGIN_KEY)).toBe("google");
    act(() => vi.advanceTimersByTime(1499));
    expect(assign).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(assign).toHaveBeenCalledWith(
      `/api/social-auth/google?enableRealLogin=true&redirectUrl=${encodeURIComponent("http://localhost/auth?x=1")}`,
    );
  });

  it("says the checkout's words when given them (the pay page, in the payer's language)", async () => {
    vi.stubGlobal("fetch", vi.fn().mockResolvedValue(json(200, providers("unavailable"))));
    const words = {
      orContinueWith: "ou continue com",
      continueWith: (provider: string) => `Continuar com ${provider}`,
      redirecting: "Redirecionando...",
      redirectingLabel: "Redirecionando",
      redirectingTo: (provider: string) => `Redirecionando para ${provider}...`,
      notConfigured: "não configurado",
      waiting: "Aguardando",
      finishInWindow: (provider: string) => `Conclua o login com ${provider} na janela que foi aberta.`,
      cancel: "Cancelar",
      developmentNote: "Provedores sem credenciais abrem uma página de login de desenvolvimento.",
      custodialNote: "Uma conta social vem com uma carteira CPXTB custodiada.",
    };
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SocialSignIn words={words} />
      </QueryClientProvider>,
    );
    expect((await screen.findAllByText("não configurado")).length).toBe(4);
    expect(screen.getByRole("button", { name: /Continuar com Google/ })).toBeTruthy();
    expect(screen.getByText("ou continue com")).toBeTruthy();
    expect(screen.getByText("Uma conta social vem com uma carteira CPXTB custodiada.")).toBeTruthy();
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

  it("with useBasicLogin=true opens a window at the click and sends it to the provider the server names", async () => {
    const startUrl = "/api/social-auth/google?enableRealLogin=true&redirectUrl=%2Fauth";
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (init?.method === "POST") {
        expect(JSON.parse(String(init.body))).toMatchObject({
          enableWeb3Auth: false,
          enableRealLogin: false,
        });
        return json(401, {
          error: { code: "UNAUTHENTICATED", message: "Sign in first.", details: { url: startUrl } },
        });
      }
      expect(url).toBe("/api/social-auth/providers");
      return json(200, providers("development"));
    });
    vi.stubGlobal("fetch", fetchMock);
    vi.stubGlobal("location", {
      ...window.location,
      search: "?useBasicLogin=true",
      href: "http://localhost/auth",
    });
    const popup = { close: vi.fn(), location: { href: "about:blank" } };
    const open = vi.spyOn(window, "open").mockReturnValue(popup as unknown as Window);
    render(
      <QueryClientProvider client={createQueryClient()}>
        <SocialSignIn />
      </QueryClientProvider>,
    );
    await screen.findByText("Providers without credentials open a development sign-in page on this server.");
    fireEvent.click(screen.getByRole("button", { name: "Continue with Google" }));
    expect(open).toHaveBeenCalledWith("about:blank", "cpxtb-social-login", expect.stringContaining("popup"));
    expect(await screen.findByText("Finish signing in with Google in the window that opened.")).toBeTruthy();
    await vi.waitFor(() => expect(popup.location.href).toBe(startUrl), { timeout: 10_000 });
    expect(popup.close).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
  });
});
