import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { chooseLanguage, loadMessages } from "@/i18n/i18n";
import { createQueryClient } from "@/lib/query-client";
import { BuyForm } from "./buy-form";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const config = (paypal: boolean) => ({
  available: true,
  reason: null,
  unavailableReason: null,
  treasuryAddress: "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65",
  chainId: 31337,
  minUsd: "1",
  maxUsd: "1000",
  quoteMinutes: 10,
  methods: { eth: true, paypal },
});
const quote = {
  usd: "25",
  tokens: "2500",
  tokenAmountBase: "2500000000000000000000",
  eth: "0.0125",
  ethAmountWei: "12500000000000000",
  usdPerToken: "0.01",
  ethUsd: "2000",
  priceUpdatedAt: "2026-11-24T05:00:00.000Z",
};
const BUYER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

const PROOF = { nonce: "n".repeat(24), signature: `0x${"ab".repeat(65)}` };

const MANAGED = "0x434D9a8b2CD7d4d2C4F1b5d5e84A0f8d5F0DbCD8";

function renderForm(
  onOrder: (id: string) => void = () => {},
  managed: { connectWallet?: () => Promise<string>; deliverTo?: "managed" | "wallet" } | null = null,
) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <BuyForm
        connectWallet={managed?.connectWallet ?? (async () => BUYER)}
        proveWallet={async () => ({ buyerAddress: BUYER, proof: PROOF })}
        onOrder={onOrder}
        managedAddress={managed ? MANAGED : null}
        initialDeliverTo={managed?.deliverTo}
      />
    </QueryClientProvider>,
  );
}

// The buy page loads the "buy" words before it renders (lazy-pages.ts): here, in English.
beforeAll(async () => {
  await loadMessages("en", ["buy"]);
  await chooseLanguage("en", { remember: false });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("BuyForm payment methods", () => {
  it("hides PayPal when the server has no PayPal credentials", async () => {
    vi.stubGlobal("fetch", vi.fn().mockResolvedValue(json(200, config(false))));
    renderForm();
    expect(await screen.findByRole("button", { name: "Buy with ETH" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Pay with PayPal" })).toBeNull();
  });

  it("with PayPal configured, creates the PayPal order and goes to PayPal's approval page", async () => {
    const approveUrl = "https://www.sandbox.paypal.com/checkoutnow?token=5O190127TN364715T";
    const fetch = vi.fn(async (url: string) => {
      if (url === "/api/buy/config") return json(200, config(true));
      if (url === "/api/buy/quote") return json(200, quote);
      if (url === "/api/buy/paypal/orders") return json(201, { id: "ord_x", approveUrl });
      return json(404, { error: { code: "NOT_FOUND", message: "no" } });
    });
    vi.stubGlobal("fetch", fetch);
    const assign = vi.fn();
    vi.stubGlobal("location", { ...window.location, assign });
    renderForm();
    fireEvent.change(await screen.findByLabelText("Amount (USD)"), { target: { value: "25" } });
    const pay = await screen.findByRole("button", { name: "Pay with PayPal" });
    await waitFor(() => expect((pay as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(pay);
    await waitFor(() => expect(assign).toHaveBeenCalledWith(approveUrl));
    const create = fetch.mock.calls.find(([url]) => url === "/api/buy/paypal/orders") as unknown as [
      string,
      { body: string },
    ];
    expect(JSON.parse(create[1].body)).toEqual({ buyerAddress: BUYER, usd: "25", returnTo: null });
  });

  it("an ETH order carries the wallet's proof", async () => {
    const fetch = vi.fn(async (url: string) => {
      if (url === "/api/buy/config") return json(200, config(false));
      if (url === "/api/buy/quote") return json(200, quote);
      if (url === "/api/buy/orders") return json(201, { id: "ord_y" });
      return json(404, { error: { code: "NOT_FOUND", message: "no" } });
    });
    vi.stubGlobal("fetch", fetch);
    const onOrder = vi.fn();
    renderForm(onOrder);
    fireEvent.change(await screen.findByLabelText("Amount (USD)"), { target: { value: "25" } });
    const buy = await screen.findByRole("button", { name: "Buy with ETH" });
    await waitFor(() => expect((buy as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(buy);
    await waitFor(() => expect(onOrder).toHaveBeenCalledWith("ord_y"));
    const create = fetch.mock.calls.find(([url]) => url === "/api/buy/orders") as unknown as [
      string,
      { body: string },
    ];
    expect(JSON.parse(create[1].body)).toEqual({
      method: "eth",
      buyerAddress: BUYER,
      proof: PROOF,
      usd: "25",
      returnTo: null,
    });
  });

  it("for the managed wallet: the ETH comes from the proven browser wallet, the order asks for delivery there", async () => {
    const fetch = vi.fn(async (url: string) => {
      if (url === "/api/buy/config") return json(200, config(false));
      if (url === "/api/buy/quote") return json(200, quote);
      if (url === "/api/buy/orders") return json(201, { id: "ord_m" });
      return json(404, { error: { code: "NOT_FOUND", message: "no" } });
    });
    vi.stubGlobal("fetch", fetch);
    const onOrder = vi.fn();
    renderForm(onOrder, { deliverTo: "managed" });
    expect(((await screen.findByLabelText(/My CPXTB wallet/)) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText(MANAGED)).toBeTruthy();
    expect(screen.getByTestId("buy-managed-note").textContent).toMatch(/arrives in your CPXTB wallet/);
    fireEvent.change(screen.getByLabelText("Amount (USD)"), { target: { value: "25" } });
    const buy = await screen.findByRole("button", { name: "Buy with ETH" });
    await waitFor(() => expect((buy as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(buy);
    await waitFor(() => expect(onOrder).toHaveBeenCalledWith("ord_m"));
    const create = fetch.mock.calls.find(([url]) => url === "/api/buy/orders") as unknown as [
      string,
      { body: string },
    ];
    // No address is sent as "managed": the server takes it from the session.
    expect(JSON.parse(create[1].body)).toEqual({
      method: "eth",
      buyerAddress: BUYER,
      proof: PROOF,
      deliverTo: "managed",
      usd: "25",
      returnTo: null,
    });
  });

  it("for the managed wallet with PayPal, no browser wallet is asked for", async () => {
    const approveUrl = "https://www.sandbox.paypal.com/checkoutnow?token=5O190127TN364715T";
    const fetch = vi.fn(async (url: string) => {
      if (url === "/api/buy/config") return json(200, config(true));
      if (url === "/api/buy/quote") return json(200, quote);
      if (url === "/api/buy/paypal/orders") return json(201, { id: "ord_p", approveUrl });
      return json(404, { error: { code: "NOT_FOUND", message: "no" } });
    });
    vi.stubGlobal("fetch", fetch);
    vi.stubGlobal("location", { ...window.location, assign: vi.fn() });
    const connectWallet = vi.fn(async () => BUYER);
    renderForm(undefined, { deliverTo: "managed", connectWallet });
    fireEvent.change(await screen.findByLabelText("Amount (USD)"), { target: { value: "25" } });
    const pay = await screen.findByRole("button", { name: "Pay with PayPal" });
    await waitFor(() => expect((pay as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(pay);
    await waitFor(() =>
      expect(fetch.mock.calls.some(([url]) => url === "/api/buy/paypal/orders")).toBe(true),
    );
    expect(connectWallet).not.toHaveBeenCalled();
    const create = fetch.mock.calls.find(([url]) => url === "/api/buy/paypal/orders") as unknown as [
      string,
      { body: string },
    ];
    expect(JSON.parse(create[1].body)).toMatchObject({ deliverTo: "managed", usd: "25" });
  });

  it("choosing the browser wallet instead sends no delivery choice", async () => {
    const fetch = vi.fn(async (url: string) => {
      if (url === "/api/buy/config") return json(200, config(false));
      if (url === "/api/buy/quote") return json(200, quote);
      if (url === "/api/buy/orders") return json(201, { id: "ord_w" });
      return json(404, { error: { code: "NOT_FOUND", message: "no" } });
    });
    vi.stubGlobal("fetch", fetch);
    const onOrder = vi.fn();
    renderForm(onOrder, { deliverTo: "managed" });
    fireEvent.click(await screen.findByLabelText(/The browser wallet that pays/));
    fireEvent.change(screen.getByLabelText("Amount (USD)"), { target: { value: "25" } });
    const buy = await screen.findByRole("button", { name: "Buy with ETH" });
    await waitFor(() => expect((buy as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(buy);
    await waitFor(() => expect(onOrder).toHaveBeenCalledWith("ord_w"));
    const create = fetch.mock.calls.find(([url]) => url === "/api/buy/orders") as unknown as [
      string,
      { body: string },
    ];
    expect(JSON.parse(create[1].body)).not.toHaveProperty("deliverTo");
  });
});
