import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import * as React from "react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { chooseLanguage, loadMessages } from "@/i18n/i18n";
import { queryClient } from "@/lib/query-client";
import type { PaymentDetail } from "../api/get-payment-detail";
import { PaymentDetailView } from "./payment-detail";

// The dashboard loads its words before it renders (lazy-pages.ts): here, in English.
beforeAll(async () => {
  await loadMessages("en", ["merchant", "pay"]);
  await chooseLanguage("en", { remember: false });
});

const OLD = `pay_${"0".repeat(25)}1`;
const NEW = `pay_${"0".repeat(25)}2`;

function detail(id: string, overrides: Partial<PaymentDetail> = {}): PaymentDetail {
  return {
    id,
    reference: `ref${id.slice(-1)}AAAAAAAAAAAAAAAAAAA`,
    status: "expired",
    amountDue: "5.000123",
    amountDueBase: "5000123000000000000",
    amountReceived: "0",
    amountReceivedBase: "0",
    amountToPay: "5.000123",
    amountToPayBase: "5000123000000000000",
    amountUsd: "0.05",
    amountReceivedUsd: null,
    overpaid: false,
    overpaidBase: "0",
    refundStatus: "none",
    amountRefunded: "0",
    amountRefundedBase: "0",
    chainId: 31337,
    tokenAddress: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    receivingAddress: "0x1111111111111111111111111111111111111111",
    paymentUri:
      "ethereum:0x5FbDB2315678afecb367f032d93F642f64180aa3@31337/transfer?address=0x1111111111111111111111111111111111111111&uint256=5000123000000000000",
    paymentUrl: "http://localhost/pay/ref",
    price: { usdPerToken: "0.01", source: "fixed", at: "2026-11-22T00:00:00.000Z" },
    tag: 123,
    toleranceBps: 0,
    description: "Espresso",
    orderId: null,
    successUrl: null,
    payerEmail: null,
    payerLanguage: null,
    expiresAt: "2026-11-22T00:15:00.000Z",
    monitorUntil: "2026-11-23T00:15:00.000Z",
    completedAt: null,
    regeneratedFrom: null,
    regeneratedTo: null,
    linkId: null,
    createdAt: "2026-11-22T00:00:00.000Z",
    updatedAt: "2026-11-22T00:00:00.000Z",
    timeline: [
      { from: null, to: "pending", cause: "created", blockNumber: null, at: "2026-11-22T00:00:00.000Z" },
    ],
    transfers: [],
    refunds: [],
    refundLinks: [],
    refundAddresses: [],
    refundableBase: "0",
    ...overrides,
  };
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

function Harness() {
  const [id, setId] = React.useState(OLD);
  return (
    <QueryClientProvider client={queryClient}>
      <p data-testid="shown">{id}</p>
      <PaymentDetailView
        key={id}
        id={id}
        merchant={{ name: "Corner Coffee", brandColor: null }}
        onOpen={setId}
      />
    </QueryClientProvider>
  );
}

afterEach(() => {
  queryClient.clear();
  vi.unstubAllGlobals();
});

describe("PaymentDetailView", () => {
  it("regenerates an expired unpaid payment and shows the new one, linked back", async () => {
    let regenerated = false;
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url === "/api/chain-config") return json({ blockExplorerUrl: null });
      if (url === `/api/merchant/payments/${OLD}/regenerate` && init?.method === "POST") {
        regenerated = true;
        return json(detail(NEW, { status: "pending", regeneratedFrom: OLD }), 201);
      }
      if (url === `/api/merchant/payments/${OLD}`)
        return json(detail(OLD, regenerated ? { regeneratedTo: NEW } : {}));
      if (url === `/api/merchant/payments/${NEW}`)
        return json(detail(NEW, { status: "pending", regeneratedFrom: OLD }));
      return json({ error: { code: "NOT_FOUND", message: "no" } }, 404);
    });
    vi.stubGlobal("fetch", fetchMock);
    render(<Harness />);
    fireEvent.click(await screen.findByRole("button", { name: /Regenerate at today's rate/ }));
    await waitFor(() => expect(screen.getByTestId("shown").textContent).toBe(NEW));
    expect(
      await screen.findByText("Awaiting payment", { selector: "[data-testid=detail-status]" }),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Replaces an expired payment: open it" }));
    await waitFor(() => expect(screen.getByTestId("shown").textContent).toBe(OLD));
    expect(await screen.findByRole("button", { name: /Open the new payment/ })).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Regenerate/ })).toBeNull();
  });

  it("shows the server's reason when verifying a hash fails", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url === "/api/chain-config") return json({ blockExplorerUrl: null });
        if (init?.method === "POST")
          return json(
            { error: { code: "UNPROCESSABLE", message: "This transaction failed on chain (reverted)." } },
            422,
          );
        return json(detail(OLD, { status: "pending" }));
      }),
    );
    render(<Harness />);
    fireEvent.change(await screen.findByLabelText("Transaction hash"), { target: { value: "0x12" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect(await screen.findByText(/Enter the transaction hash: 0x followed by 64/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Transaction hash"), {
      target: { value: `0x${"ab".repeat(32)}` },
    });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    expect((await screen.findByTestId("verify-error")).textContent).toBe(
      "Not verified: This transaction failed on chain (reverted).",
    );
  });

  it("says the timeline's causes and the accepted underpayment in the reader's words and formats", async () => {
    await loadMessages("de", ["merchant", "pay"]);
    await loadMessages("ar", ["merchant", "pay"]);
    const timeline = [
      { from: null, to: "pending", cause: "created", blockNumber: null, at: "2026-11-22T00:00:00.000Z" },
      {
        from: "pending",
        to: "cancelled",
        cause: "cancelled by the API (key key_abc123)",
        blockNumber: null,
        at: "2026-11-22T00:01:00.000Z",
      },
      {
        from: "completed",
        to: "processing",
        cause: "chain reorganisation: blocks above 1234 replaced",
        blockNumber: "1234",
        at: "2026-11-22T00:02:00.000Z",
      },
    ] as PaymentDetail["timeline"];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        if (url === "/api/chain-config") return json({ blockExplorerUrl: null });
        return json(detail(OLD, { status: "cancelled", toleranceBps: 50, timeline }));
      }),
    );
    try {
      await chooseLanguage("de", { remember: false });
      const { unmount } = render(<Harness />);
      const causes = await screen.findByTestId("detail-timeline");
      expect(causes.textContent).toContain("Über die API storniert (Schlüssel key_abc123)");
      expect(causes.textContent).toContain(
        "Reorganisation der Blockchain: Die Blöcke nach 1234 wurden ersetzt",
      );
      // The block is said once, in the sentence.
      expect(causes.textContent).not.toContain("Block 1234");
      // "0,5\u00a0%" (the matcher reads the no-break space as a space).
      expect(screen.getByText("0,5 %")).toBeTruthy();
      unmount();
      queryClient.clear();
      await chooseLanguage("ar", { remember: false });
      render(<Harness />);
      const arabic = await screen.findByTestId("detail-timeline");
      expect(arabic.textContent).toContain("أُلغيت عبر واجهة API (المفتاح key_abc123)");
      expect(arabic.textContent).toContain("إعادة تنظيم في البلوك تشين");
      expect(arabic.textContent).not.toMatch(/cancelled by|reorganisation/);
    } finally {
      await chooseLanguage("en", { remember: false });
    }
  });

  it("names a busy button's spinner in the reader's words (verifying a hash)", async () => {
    await loadMessages("de", ["merchant", "pay"]);
    await loadMessages("ar", ["merchant", "pay"]);
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url === "/api/chain-config") return json({ blockExplorerUrl: null });
        // The verification never answers: the button stays busy.
        if (init?.method === "POST") return new Promise<Response>(() => {});
        return json(detail(OLD, { status: "pending" }));
      }),
    );
    const cases = [
      { locale: "en", hash: "Transaction hash", verify: "Verify", busy: "Checking…" },
      { locale: "de", hash: "Transaktions-Hash", verify: "Prüfen", busy: "Wird geprüft…" },
      { locale: "ar", hash: "هاش المعاملة", verify: "تحقّق", busy: "جارٍ التحقق…" },
    ] as const;
    try {
      for (const { locale, hash, verify, busy } of cases) {
        await chooseLanguage(locale, { remember: false });
        const { unmount } = render(<Harness />);
        fireEvent.change(await screen.findByLabelText(hash), { target: { value: `0x${"ab".repeat(32)}` } });
        fireEvent.click(screen.getByRole("button", { name: verify }));
        expect(await screen.findByRole("status", { name: busy })).toBeTruthy();
        unmount();
        queryClient.clear();
      }
    } finally {
      await chooseLanguage("en", { remember: false });
    }
  });
});
