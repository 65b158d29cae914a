import { LOCALES } from "@common/locales";
import type { PublicPayment } from "@common/payments";
import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { when } from "@/features/claim/claim-time";
import { formatTokenAmount } from "@/features/payments/format";
import { chooseLanguage, loadMessages } from "@/i18n/i18n";
import { createQueryClient } from "@/lib/query-client";
import ManagedWalletCheckout, { decimalToBase, payBlocker } from "./managed-wallet-checkout";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const E18 = 10n ** 18n;

const payment = {
  reference: "ref_abc123",
  status: "pending",
  amountDue: "8.000812",
  amountDueBase: "8000812000000000000",
  amountToPay: "8.000812",
  amountToPayBase: "8000812000000000000",
  amountReceivedBase: "0",
  token: { address: "0x5FbDB2315678afecb367f032d93F642f64180aa3", symbol: "CPXTB", decimals: 18 },
  chainId: 31337,
} as PublicPayment;

const wallet = (balance: string) => ({
  address: "0x434d7a3f3a25D0aA3f0B5B8c1E1B2e6c9A0bbCD8",
  balance,
  ethBalance: "0",
  symbol: "CPXTB",
  dailyLimit: "1000",
  spentToday: "0",
  custodial: true,
});

function renderCard(routes: Record<string, () => Response>) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      const path = new URL(url, "http://localhost").pathname;
      const answer = routes[path];
      if (!answer) throw new Error(`unexpected ${path}`);
      return answer();
    }),
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ManagedWalletCheckout payment={payment} remainingText="8.000812" />
    </QueryClientProvider>,
  );
}

// The card is on the checkout, whose page loads the "pay" and "wallet" words first (lazy-pages.ts): here, in English.
beforeAll(async () => {
  await loadMessages("en", ["pay", "wallet"]);
  await chooseLanguage("en", { remember: false });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("payBlocker", () => {
  it("reads decimal strings exactly, never through a float", () => {
    expect(decimalToBase("8.000812", 18)).toBe(8_000_812n * 10n ** 12n);
    expect(decimalToBase("0", 18)).toBe(0n);
    expect(decimalToBase("12", 6)).toBe(12_000_000n);
  });

  it("says what is missing, then the daily limit, then nothing", () => {
    const due = decimalToBase("8.000812", 18);
    expect(payBlocker(wallet("0"), due, 18)).toEqual({ kind: "funds", amount: due });
    expect(payBlocker(wallet("8.000811999999999999"), due, 18)).toEqual({ kind: "funds", amount: 1n });
    expect(payBlocker({ ...wallet("20"), dailyLimit: "10", spentToday: "5" }, due, 18)).toEqual({
      kind: "limit",
      amount: 5n * E18,
    });
    expect(payBlocker(wallet("8.000812"), due, 18)).toBeNull();
  });
});

describe("ManagedWalletCheckout", () => {
  it("shows the full address, what is missing and a disabled Pay with its reason", async () => {
    renderCard({ "/api/wallet": () => json(200, wallet("0")) });
    expect(await screen.findByText("0x434d7a3f3a25D0aA3f0B5B8c1E1B2e6c9A0bbCD8")).toBeTruthy();
    expect(screen.getByText("You need 8.000812 more CPXTB for this payment.")).toBeTruthy();
    const pay = screen.getByRole("button", { name: "Pay 8.000812 CPXTB from my wallet" });
    expect((pay as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText("Pay turns on when your wallet holds 8.000812 CPXTB.")).toBeTruthy();
    expect(screen.getByRole("link", { name: /Buy 8.000812 CPXTB/ }).getAttribute("href")).toBe(
      `/buy-cpxtb?to=managed&return=${encodeURIComponent("/")}&tokens=8.000812`,
    );
  });

  it("a 409 payment_in_flight says the payment is already being paid, with its transfer", async () => {
    renderCard({
      "/api/wallet": () => json(200, wallet("20")),
      "/api/wallet/pay": () =>
        json(409, {
          error: {
            code: "CONFLICT",
            message: "This payment is already being paid.",
            details: { reason: "payment_in_flight", send: { status: "broadcast", txHash: "0xabc" } },
          },
        }),
    });
    fireEvent.click(await screen.findByRole("button", { name: "Pay 8.000812 CPXTB from my wallet" }));
    expect(
      await screen.findByText(
        /This payment is already being paid: its transfer is sent, waiting for the network/,
      ),
    ).toBeTruthy();
    expect(screen.getByText(/transaction 0xabc/)).toBeTruthy();
  });

  it("shows a refusal in words, never with its status code", async () => {
    renderCard({
      "/api/wallet": () => json(200, wallet("20")),
      "/api/wallet/pay": () =>
        json(422, { error: { code: "UNPROCESSABLE", message: "Your wallet holds 0 CPXTB." } }),
    });
    fireEvent.click(await screen.findByRole("button", { name: "Pay 8.000812 CPXTB from my wallet" }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe("Your wallet holds 0 CPXTB.");
  });

  it("says a refusal with values by its reason, the values in the reader's format", async () => {
    renderCard({
      "/api/wallet": () => json(200, wallet("20")),
      "/api/wallet/pay": () =>
        json(422, {
          error: {
            code: "UNPROCESSABLE",
            message: "Your wallet holds 1234.5 CPXTB; this needs 8.000812.",
            details: { reason: "insufficient_balance", balance: "1234.5", needed: "8.000812" },
          },
        }),
    });
    fireEvent.click(await screen.findByRole("button", { name: "Pay 8.000812 CPXTB from my wallet" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Your wallet holds 1,234.5 CPXTB; this payment needs 8.000812 CPXTB.",
    );
  });
});

describe("ManagedWalletCheckout in the payer's language", () => {
  afterEach(() => chooseLanguage("en", { remember: false }));

  it("every language's words compile, with the same placeholders", async () => {
    for (const locale of LOCALES) await loadMessages(locale, ["wallet"]);
  });

  it("speaks German, amounts and the address kept left to right", async () => {
    await chooseLanguage("de", { remember: false });
    renderCard({ "/api/wallet": () => json(200, wallet("0")) });
    expect(await screen.findByRole("heading", { name: "Ihre CPXTB-Wallet" })).toBeTruthy();
    expect(screen.getByText("Für diese Zahlung fehlen Ihnen noch 8,000812 CPXTB.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "8,000812 CPXTB aus meiner Wallet bezahlen" })).toBeTruthy();
    expect(screen.getByTestId("managed-address").getAttribute("dir")).toBe("ltr");
  });

  it("says the transfer's state in Arabic (an ICU select)", async () => {
    await chooseLanguage("ar", { remember: false });
    renderCard({
      "/api/wallet": () => json(200, wallet("20")),
      "/api/wallet/pay": () =>
        json(409, {
          error: {
            code: "CONFLICT",
            message: "This payment is already being paid.",
            details: { reason: "payment_in_flight", send: { status: "broadcast", txHash: null } },
          },
        }),
    });
    fireEvent.click(await screen.findByRole("button", { name: "ادفع 8.000812 CPXTB من محفظتي" }));
    expect((await screen.findByTestId("managed-in-flight")).textContent).toContain("مُرسَل وينتظر الشبكة");
  });

  it("says in German that the payment cannot be paid now, its status in German", async () => {
    await loadMessages("de", ["pay", "wallet"]);
    await chooseLanguage("de", { remember: false });
    renderCard({
      "/api/wallet": () => json(200, wallet("20")),
      "/api/wallet/pay": () =>
        json(409, {
          error: {
            code: "CONFLICT",
            message: "This payment cannot be paid now (it is expired).",
            details: { reason: "not_payable", status: "expired" },
          },
        }),
    });
    fireEvent.click(await screen.findByRole("button", { name: "8,000812 CPXTB aus meiner Wallet bezahlen" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "Diese Zahlung ist jetzt nicht möglich (Status: Abgelaufen).",
    );
  });

  it("says the daily limit in Arabic with its amounts, left to right, in Latin digits", async () => {
    await loadMessages("ar", ["pay", "wallet"]);
    await chooseLanguage("ar", { remember: false });
    renderCard({
      "/api/wallet": () => json(200, wallet("20")),
      "/api/wallet/pay": () =>
        json(422, {
          error: {
            code: "UNPROCESSABLE",
            message:
              "This would pass your daily limit of 1000 CPXTB (already sent in the last 24 hours: 995.5).",
            details: { reason: "daily_limit", dailyLimit: "1000", spent: "995.5" },
          },
        }),
    });
    fireEvent.click(await screen.findByRole("button", { name: "ادفع 8.000812 CPXTB من محفظتي" }));
    const text = (await screen.findByRole("alert")).textContent;
    const limit = formatTokenAmount("1000", "ar");
    expect(limit).toMatch(/^1\D?000$/);
    expect(text).toContain(`سيتجاوز هذا حدك اليومي البالغ \u2066${limit}\u2069 CPXTB`);
    expect(text).toContain(`\u2066${formatTokenAmount("995.5", "ar")}\u2069 CPXTB`);
  });
});

describe("ManagedWalletCheckout's claim", () => {
  const status = (over: Record<string, unknown> = {}) => ({
    enabled: true,
    amount: "100",
    nextClaimAt: null,
    lastClaim: null,
    ...over,
  });

  it("offers test tokens where claims are on, and says a refusal in words, its time in the reader's", async () => {
    const next = "2026-11-28T00:00:00.000Z";
    renderCard({
      "/api/wallet": () => json(200, wallet("0")),
      "/api/claims/status": () => json(200, status()),
      "/api/claims": () =>
        json(409, {
          error: {
            code: "CONFLICT",
            message: "Today's claim budget is used up. You can claim again at 2026-11-28 00:00 UTC.",
            details: { reason: "budget_used", nextClaimAt: next },
          },
        }),
    });
    fireEvent.click(await screen.findByRole("button", { name: "Claim 100 test CPXTB" }));
    expect((await screen.findByRole("alert")).textContent).toBe(
      `Today's claim budget is used up. You can claim again at ${when(next)}.`,
    );
    const call = vi.mocked(fetch).mock.calls.find(([url]) => String(url).endsWith("/api/claims"));
    expect(JSON.parse(String(call?.[1]?.body))).toMatchObject({
      walletAddress: "0x434d7a3f3a25D0aA3f0B5B8c1E1B2e6c9A0bbCD8",
      deviceId: expect.stringMatching(/^dev_[0-9a-f]{32}$/),
    });
  });

  it("offers nothing where claims are off", async () => {
    renderCard({
      "/api/wallet": () => json(200, wallet("0")),
      "/api/claims/status": () => json(200, status({ enabled: false })),
    });
    expect(await screen.findByText("You need 8.000812 more CPXTB for this payment.")).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole("button", { name: /Claim/ })).toBeNull();
  });
});
