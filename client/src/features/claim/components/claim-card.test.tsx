import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { chooseLanguage, loadMessages } from "@/i18n/i18n";
import { createQueryClient } from "@/lib/query-client";
import arBuy from "@/locales/ar/buy.json";
import { when } from "../claim-time";
import { ClaimCard } from "./claim-card";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const device = { deviceIdFor: () => "dev_test_device", rememberClaim: vi.fn() };
const status = (overrides: Record<string, unknown> = {}) => ({
  enabled: true,
  amount: "10",
  nextClaimAt: null,
  lastClaim: null,
  ...overrides,
});

function renderCard(props: Partial<React.ComponentProps<typeof ClaimCard>> = {}) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <ClaimCard
        signedIn
        wallets={[{ address: WALLET, label: "Browser wallet" }]}
        device={device}
        {...props}
      />
    </QueryClientProvider>,
  );
}

// The buy page loads the "buy" and "pay" words before it renders (lazy-pages.ts): here, in English.
beforeAll(async () => {
  await loadMessages("en", ["buy", "pay"]);
  await chooseLanguage("en", { remember: false });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("ClaimCard", () => {
  it("asks a signed-out visitor to sign in", () => {
    renderCard({ signedIn: false });
    expect(screen.getByText("Claim Test CPXTB Tokens")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Sign in / Register" })).toBeTruthy();
  });

  it("asks for a wallet when the account has none", () => {
    renderCard({ wallets: [] });
    expect(screen.getByRole("link", { name: "Link a wallet" })).toBeTruthy();
  });

  it("says so when claims are switched off", async () => {
    vi.stubGlobal("fetch", vi.fn().mockResolvedValue(json(200, status({ enabled: false }))));
    renderCard();
    expect(
      await screen.findByText(/Claiming test CPXTB is switched off on this server; you can claim again once/),
    ).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Claim/ })).toBeNull();
  });

  it("shows a refusal, states the next claim time once in local time, and turns Claim off until then", async () => {
    const next = new Date(Date.now() + 3 * 3_600_000).toISOString();
    const fetch = vi
      .fn()
      .mockResolvedValueOnce(json(200, status()))
      .mockResolvedValueOnce(
        json(409, {
          error: {
            code: "CONFLICT",
            message: `Already claimed in the last 24 hours. You can claim again at ${next.slice(0, 16).replace("T", " ")} UTC.`,
            details: { reason: "cooldown", nextClaimAt: next },
          },
        }),
      );
    vi.stubGlobal("fetch", fetch);
    renderCard();
    fireEvent.click(await screen.findByRole("button", { name: "Claim 10 CPXTB" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe("Already claimed in the last 24 hours.");
    expect(screen.getByTestId("claim-next").textContent).toBe(`You can claim again at ${when(next)}.`);
    expect(screen.getAllByText(/claim again/)).toHaveLength(1);
    expect((screen.getByTestId("claim-button") as HTMLButtonElement).disabled).toBe(true);
    expect(fetch.mock.calls[0]?.[0]).toBe(
      `/api/claims/status?walletAddress=${WALLET}&deviceId=dev_test_device`,
    );
    expect(JSON.parse(fetch.mock.calls[1]?.[1].body)).toEqual({
      walletAddress: WALLET,
      deviceId: "dev_test_device",
    });
    expect(device.rememberClaim).not.toHaveBeenCalled();
  });

  it("says the day's budget used up in German, by the answer's reason, the time once in German", async () => {
    await loadMessages("de", ["buy", "pay"]);
    await chooseLanguage("de", { remember: false });
    try {
      const next = new Date(Date.now() + 5 * 3_600_000).toISOString();
      vi.stubGlobal(
        "fetch",
        vi
          .fn()
          .mockResolvedValueOnce(json(200, status()))
          .mockResolvedValueOnce(
            json(409, {
              error: {
                code: "CONFLICT",
                message: "Today's claim budget is used up. You can claim again at 2026-11-28 00:00 UTC.",
                details: { reason: "budget_used", nextClaimAt: next },
              },
            }),
          ),
      );
      renderCard();
      fireEvent.click(await screen.findByRole("button", { name: "10 CPXTB abholen" }));
      expect((await screen.findByRole("alert")).textContent).toBe(
        "Das heutige Kontingent an Test-CPXTB ist aufgebraucht.",
      );
      expect(screen.getByTestId("claim-next").textContent).toBe(
        `Nächste Abholung möglich ab ${when(next, "de")}.`,
      );
    } finally {
      await chooseLanguage("en", { remember: false });
    }
  });

  it.each([
    [
      "en",
      "Claims go to a wallet of your account: sign in with your browser wallet, or link one in your profile.",
    ],
    [
      "de",
      "Test-CPXTB gehen an eine Wallet Ihres Kontos: Melden Sie sich mit Ihrer Browser-Wallet an oder verknüpfen Sie eine in Ihrem Profil.",
    ],
    ["ar", arBuy["buy.claim.noWallet"]],
  ] as const)(
    "a wallet not the account's, in %s: the card's own words for no wallet (issue 37)",
    async (locale, text) => {
      await loadMessages(locale, ["buy", "pay"]);
      await chooseLanguage(locale, { remember: false });
      try {
        vi.stubGlobal(
          "fetch",
          vi
            .fn()
            .mockResolvedValueOnce(json(200, status()))
            .mockResolvedValueOnce(
              json(403, {
                error: {
                  code: "FORBIDDEN",
                  message:
                    "Link this wallet to your account first (sign in with it, or link it in your profile), or use your account's managed wallet.",
                  details: { reason: "wallet_not_linked" },
                },
              }),
            ),
        );
        renderCard();
        fireEvent.click(await screen.findByTestId("claim-button"));
        const alert = (await screen.findByRole("alert")).textContent;
        expect(alert).toBe(text);
        expect(alert).not.toContain("Link this wallet");
      } finally {
        await chooseLanguage("en", { remember: false });
      }
    },
  );
});
