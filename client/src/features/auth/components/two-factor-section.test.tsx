import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { chooseLanguage, loadMessages } from "@/i18n/i18n";
import { createQueryClient } from "@/lib/query-client";
import { TwoFactorSection } from "./two-factor-section";

// The profile loads the "account" words before it renders (lazy-pages.ts): here, in English.
beforeAll(async () => {
  await loadMessages("en", ["account", "pay"]);
  await chooseLanguage("en", { remember: false });
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

const status = (recentSignIn: boolean, totpEnabled = false) => ({
  totpEnabled,
  recoveryCodesLeft: totpEnabled ? 10 : 0,
  passkeys: [],
  recentSignIn,
  requireTwoFactor: null,
});

const reauthRequired = () =>
  json(403, {
    error: {
      code: "FORBIDDEN",
      message: "For your security, enter your password to add a second factor, or sign in again.",
      details: { reason: "REAUTH_REQUIRED", accepts: ["password"] },
    },
  });

type Call = { url: string; method: string; body: unknown };

/** Answers GET /api/user/two-factor with `states` in turn (the last one repeats) and POSTs with `post`. */
function stubApi(states: unknown[], post: (url: string, body: unknown) => Response) {
  const calls: Call[] = [];
  let read = 0;
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? "GET";
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ url, method, body });
      if (method === "GET") return json(200, states[Math.min(read++, states.length - 1)]);
      return post(url, body);
    }),
  );
  return calls;
}

function renderSection(hasPassword: boolean) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <TwoFactorSection hasPassword={hasPassword} />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("TwoFactorSection: adding a second factor after a while", () => {
  it("asks for the password when the sign-in is not recent, and sends it with the set-up", async () => {
    const calls = stubApi([status(false)], (url) =>
      url.endsWith("/api/user/two-factor/totp")
        ? json(200, { secret: "JBSWY3DPEHPK3PXP", uri: "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP" })
        : json(404, {}),
    );
    renderSection(true);
    expect(await screen.findByRole("heading", { name: "Confirm it is you" })).toBeTruthy();
    expect(screen.getByText(/Enter your password to add a second factor/)).toBeTruthy();
    // No factor yet: there is no code to give, so no code field.
    expect(screen.queryByLabelText(/Current code/)).toBeNull();
    fireEvent.change(screen.getByLabelText("Your password"), { target: { value: "hunter2 hunter2" } });
    fireEvent.click(screen.getByRole("button", { name: /Set up authenticator app/ }));
    expect(await screen.findByRole("heading", { name: "Set up your authenticator app" })).toBeTruthy();
    const setup = calls.find((c) => c.method === "POST");
    expect(setup).toMatchObject({ url: "/api/user/two-factor/totp", body: { password: "hunter2 hunter2" } });
  });

  it("a recent sign-in needs no proof; when it stops being recent, the server's 403 brings the fields", async () => {
    const calls = stubApi([status(true), status(false)], reauthRequired);
    renderSection(true);
    const button = await screen.findByRole("button", { name: /Set up authenticator app/ });
    expect(screen.queryByRole("heading", { name: "Confirm it is you" })).toBeNull();
    fireEvent.click(button);
    expect(await screen.findByRole("heading", { name: "Confirm it is you" })).toBeTruthy();
    expect(calls.find((c) => c.method === "POST")?.body).toEqual({});
    expect(screen.getByText(/Enter your password to add a second factor/)).toBeTruthy();
  });

  it("without a password or a factor, says to sign in again", async () => {
    stubApi([status(false)], reauthRequired);
    renderSection(false);
    expect(await screen.findByText(/Sign out and sign in again to add a second factor/)).toBeTruthy();
    expect(screen.queryByLabelText("Your password")).toBeNull();
  });

  it("with the app on, offers a current code for any change", async () => {
    stubApi([status(false, true)], () => json(404, {}));
    renderSection(true);
    await waitFor(() => expect(screen.getByLabelText(/Current code/)).toBeTruthy());
    expect(screen.getByLabelText("Your password")).toBeTruthy();
  });
});
