import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createQueryClient } from "@/lib/query-client";
import { BuyForm } from "./buy-form";

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const config = (paypal: boolean) => ({
  available: true,
  reason: null,
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

function renderForm(onOrder: (id: string) => void = () => {}) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <BuyForm
        connectWallet={async () => BUYER}
        proveWallet={async () => ({ buyerAddress: BUYER, proof: PROOF })}
        onOrder={onOrder}
      />
    </QueryClientProvider>,
  );
}

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
});
