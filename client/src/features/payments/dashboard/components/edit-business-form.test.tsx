import type { Merchant } from "@common/merchant";
import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { chooseLanguage, loadMessages } from "@/i18n/i18n";
import { createQueryClient } from "@/lib/query-client";
import type { SignOwnership } from "./business-setup-form";
import { EditBusinessForm } from "./edit-business-form";

// The dashboard loads its words before it renders (lazy-pages.ts): here, in English.
beforeAll(async () => {
  await loadMessages("en", ["merchant", "pay"]);
  await chooseLanguage("en", { remember: false });
});

const OLD = "0x1111111111111111111111111111111111111111";
const NEW = "0x2222222222222222222222222222222222222222";
const merchant: Merchant = {
  role: "owner",
  businessCount: 1,
  id: "mer_1",
  name: "Corner Coffee",
  businessType: "food",
  contactEmail: "owner@example.com",
  website: null,
  description: null,
  logoUrl: null,
  walletAddress: OLD,
  walletVerifiedAt: "2026-11-22T00:00:00.000Z",
  toleranceBps: 0,
  brandColor: null,
  pageTheme: "auto",
  payLanguage: null,
  tipPresets: [],
  createdAt: "2026-11-22T00:00:00.000Z",
  updatedAt: "2026-11-22T00:00:00.000Z",
};
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
const signature = `0x${"ab".repeat(65)}` as const;

function setup(signOwnership: SignOwnership, answer = json(200, merchant)) {
  const fetchMock = vi.fn().mockResolvedValue(answer);
  vi.stubGlobal("fetch", fetchMock);
  const onDone = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <EditBusinessForm merchant={merchant} signOwnership={signOwnership} onDone={onDone} />
    </QueryClientProvider>,
  );
  const patches = () =>
    fetchMock.mock.calls
      .filter(([, init]) => (init as RequestInit | undefined)?.method === "PATCH")
      .map(([, init]) => JSON.parse(String((init as RequestInit).body)));
  return { fetchMock, onDone, patches };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("EditBusinessForm", () => {
  it("saves the fields without asking the wallet while the address stays", async () => {
    const sign = vi.fn();
    const { onDone, patches } = setup(sign);
    fireEvent.change(screen.getByLabelText("Business name"), { target: { value: "Corner Cafe" } });
    fireEvent.change(screen.getByLabelText("Brand colour (optional)"), { target: { value: "#0F766E" } });
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(sign).not.toHaveBeenCalled();
    expect(patches()).toHaveLength(1);
    expect(patches()[0]).toMatchObject({ name: "Corner Cafe", brandColor: "#0f766e", pageTheme: "auto" });
    expect(patches()[0]).not.toHaveProperty("walletAddress");
  });

  it("refuses a bad brand colour before any request", async () => {
    const { fetchMock } = setup(vi.fn());
    fireEvent.change(screen.getByLabelText("Brand colour (optional)"), { target: { value: "teal" } });
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText(/Enter a colour like #1a7f5a/)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("sends a new address with the wallet's proof", async () => {
    const sign: SignOwnership = vi.fn(async () => ({
      address: NEW,
      challenge: { address: NEW, nonce: "n".repeat(24), message: "m", expiresAt: "" },
      signature,
    }));
    const { onDone, patches } = setup(sign, json(200, { ...merchant, walletAddress: NEW }));
    fireEvent.click(screen.getByLabelText("Receive at the wallet connected in my browser instead"));
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(patches()[0]).toMatchObject({ walletAddress: NEW, proof: { nonce: "n".repeat(24), signature } });
  });

  it("says so when the connected wallet is the current one, and shows the server's message on refusal", async () => {
    const same: SignOwnership = vi.fn(async () => ({
      address: OLD,
      challenge: { address: OLD, nonce: "n".repeat(24), message: "m", expiresAt: "" },
      signature,
    }));
    const { patches } = setup(
      same,
      json(409, {
        error: {
          code: "CONFLICT",
          message: "Another business already receives payments at this wallet address.",
        },
      }),
    );
    fireEvent.click(screen.getByLabelText("Receive at the wallet connected in my browser instead"));
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    expect((await screen.findByRole("alert")).textContent).toMatch(/already receives your payments/);
    expect(patches()).toHaveLength(0);
    fireEvent.click(screen.getByLabelText("Receive at the wallet connected in my browser instead"));
    fireEvent.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() =>
      expect(screen.getByRole("alert").textContent).toBe(
        "Another business already receives payments at this wallet address.",
      ),
    );
  });
});
