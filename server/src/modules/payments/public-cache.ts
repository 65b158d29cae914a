import { eq } from "drizzle-orm";
import { payments } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import * as refundRepo from "./refund-repository.ts";
import * as repo from "./repository.ts";
import { type PaymentsDeps, toPublicPaymentView } from "./service.ts";

/** How long a cached payment may be served without an event saying it changed (bounds a missed invalidation). */
const ENTRY_TTL_MS = 2000;
/** How long the indexed head is reused: confirmations on the pay page lag the indexer by at most this. */
const HEAD_TTL_MS = 250;
const MAX_ENTRIES = 10_000;
/** Shared-state channel of changes the outbox does not carry (a merchant's page details): drop every view. */
export const PUBLIC_VIEWS_CHANNEL = "payments:public-views";

type Rows = {
  payment: repo.PaymentRow;
  merchant: repo.PublicMerchant;
  transfers: Awaited<ReturnType<typeof repo.listTransfersOfPayment>>;
  refunds: refundRepo.RefundRow[];
  regeneratedToReference: string | null;
};

/**
 * The public payment read (`GET /api/payments/public/:reference`, every pay page and every payer's refresh):
 * one payment's rows kept per instance and dropped the moment an event of that payment is heard (the outbox's
 * events reach every instance through shared state, the same ones the pay page's /ws hears), so a reader never
 * sees a state older than the event that changed it. A missed event (shared state away) is bounded by
 * ENTRY_TTL_MS. The indexed head, which moves with every block, is shared by all payments for HEAD_TTL_MS.
 */
export class PublicPaymentCache {
  private entries = new Map<string, { rows: Rows; at: number }>();
  private head: { value: bigint | null; at: number; key: string } | null = null;
  /** Bumped by every invalidation: a read that began before one does not store what it read. */
  private generation = 0;

  constructor(
    private readonly deps: PaymentsDeps,
    private readonly clock: () => number = Date.now,
  ) {}

  async get(reference: string) {
    const now = this.clock();
    let cached = this.entries.get(reference);
    if (!cached || now - cached.at > ENTRY_TTL_MS) {
      const generation = this.generation;
      const rows = await this.load(reference);
      cached = { rows, at: now };
      if (generation === this.generation) {
        this.entries.delete(reference);
        this.entries.set(reference, cached);
        if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
      }
    }
    const { payment } = cached.rows;
    return toPublicPaymentView(this.deps, {
      ...cached.rows,
      head: await this.indexedHead(payment.chainId, payment.tokenAddress),
    });
  }

  /** An event of this payment (or, without a reference, of any payment) was heard. */
  invalidate(reference: string | null | undefined) {
    this.generation++;
    // The event may come from a block newer than the cached head: read the head again with the rows.
    this.head = null;
    if (reference) this.entries.delete(reference);
    else this.entries.clear();
  }

  private async load(reference: string): Promise<Rows> {
    const found = await repo.findPaymentByReference(this.deps.db, reference);
    if (!found) throw new AppError("NOT_FOUND", "No payment has this reference.");
    const [transfers, refunds, successor] = await Promise.all([
      repo.listTransfersOfPayment(this.deps.db, found.payment.id),
      refundRepo.listRefundsOfPayment(this.deps.db, found.payment.id),
      found.payment.regeneratedToId
        ? this.deps.db
            .select({ reference: payments.reference })
            .from(payments)
            .where(eq(payments.id, found.payment.regeneratedToId))
        : Promise.resolve([]),
    ]);
    return { ...found, transfers, refunds, regeneratedToReference: successor[0]?.reference ?? null };
  }

  private async indexedHead(chainId: number, tokenAddress: string) {
    const key = `${chainId}:${tokenAddress}`;
    const now = this.clock();
    if (this.head?.key === key && now - this.head.at <= HEAD_TTL_MS) return this.head.value;
    const value = await repo.findIndexedHead(this.deps.db, chainId, tokenAddress);
    this.head = { value, at: now, key };
    return value;
  }
}
