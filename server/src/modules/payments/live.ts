import {
  subscribeMerchantMessage,
  subscribePaymentMessage,
  unsubscribePaymentMessage,
} from "@common/payments.ts";
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { merchants, payments } from "../../db/schema.ts";
import { AppError } from "../../errors.ts";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import { findLiveSessionByTokenHash } from "../auth/repository.ts";
import { hashToken, SESSION_COOKIE } from "../auth/session.ts";
import type { SessionCache } from "../auth/session-cache.ts";
import { isMemberOf } from "../merchants/repository.ts";
import { findMerchantOfMember } from "../merchants/service.ts";
import type { RealtimeConnection, RealtimeHub } from "../realtime/hub.ts";
import * as repo from "./repository.ts";
import { type PaymentsDeps, publicView, type UnmatchedTransfer } from "./service.ts";
import { toPaymentResponse } from "./views.ts";

export const PAYMENT_EVENTS_CHANNEL = "payments:events";
const MAX_REFERENCES_PER_CONNECTION = 20;
const CLAIM_BATCH = 200;
/** Added to every live update (the budget is 1 s from the confirming block); batches bursts of commits. */
const FLUSH_DELAY_MS = 5;
/**
 * The safety net (decision 031): every instance looks at the publisher's queue this often without being woken, so
 * an event whose wake-up was missed (a publish that failed, a claim rolled back, a commit whose instance died
 * before flushing) is published within about this long. An empty queue costs one index probe.
 */
export const LIVE_SWEEP_MS = 1000;

/** What a merchant subscription was authorised by (kept on the connection). */
type MerchantSubscription = { merchantId: string; userId: string; tokenHash: string };
const MERCHANT_KEY = "payments:merchant";
const SIGNED_OUT = {
  type: "merchantError",
  code: "UNAUTHENTICATED",
  message: "You were signed out. Sign in again to see live payment updates.",
} as const;

const NO_LONGER_MEMBER = {
  type: "merchantError",
  code: "FORBIDDEN",
  message: "You are no longer a member of this business.",
} as const;

/** `reference` is absent in messages of instances older than it. */
type Published = {
  eventId: string;
  event: string;
  paymentId: string;
  merchantId: string;
  reference?: string | null;
};
/** A transfer to the merchant's address matched no payment: the owner's inbox changed. */
const INBOX_EVENT = "transfer.unmatched";

/** Between instances only: the transfer's id lets the delivering instance check it is still unmatched. */
type InboxMessage = {
  event: typeof INBOX_EVENT;
  merchantId: string;
  transfers?: { id: string; to: string; amount: string }[];
};

/**
 * Publishes the outbox over shared state (every instance hears it) and delivers it to this instance's /ws
 * subscribers: the pay page by reference (public fields only), the signed-in owner by merchant.
 */
export class PaymentLive {
  private byReference = new Map<string, Set<RealtimeConnection>>();
  private byMerchant = new Map<string, Set<RealtimeConnection>>();
  /** The business and receiving address of each watched reference (for unmatched transfers to that address). */
  private addressOf = new Map<string, { merchantId: string; address: string }>();
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private again = false;
  private sweepTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private unsubscribe: (() => Promise<void>) | null = null;
  /** The shared-state epoch seen last: a change means revocations may have been missed meanwhile. */
  private stateEpoch: number | null = null;
  /** Published event ids with their time (bench and tests read it). */
  onPublished: ((eventId: string, type: string) => void) | null = null;

  constructor(
    private deps: PaymentsDeps,
    private state: SharedState,
    private sessions: SessionCache,
    private hub: RealtimeHub,
    private log: FastifyBaseLogger,
    private baseUrl: () => string,
    private sweepMs = LIVE_SWEEP_MS,
  ) {}

  async start() {
    this.unsubscribe = await this.state.subscribe(PAYMENT_EVENTS_CHANNEL, (text) => {
      this.deliver(text).catch((error) => this.log.warn({ err: error }, "payment events: delivery failed"));
    });
    this.hub.handle("subscribePayment", subscribePaymentMessage, (m, c) =>
      this.subscribePayment(m.reference, c),
    );
    this.hub.handle("unsubscribePayment", unsubscribePaymentMessage, (m, c) => {
      this.byReference.get(m.reference)?.delete(c);
    });
    this.hub.handle("subscribeMerchant", subscribeMerchantMessage, (_m, c) => this.subscribeMerchant(c));
    // A session that ends (here or on any instance) stops its merchant feed at once.
    this.sessions.onSessionsEnded((userId) => {
      void this.recheckOwners((s) => s.userId === userId).catch((error) =>
        this.log.warn({ err: error }, "payment events: could not re-check merchant sessions"),
      );
    });
  }

  /**
   * Starts the sweep (with the background jobs, a moment after listen: decision 029), first at once: it also
   * publishes what was left queued while no instance ran.
   */
  startSweep() {
    if (this.stopped || this.sweepTimer) return;
    this.notify();
    this.sweepTimer = setInterval(this.notify, this.sweepMs);
    this.sweepTimer.unref();
  }

  /** The merchant subscriptions of this instance matching `which`, each re-checked against the database. */
  private async recheckOwners(which: (subscription: MerchantSubscription) => boolean) {
    const checks: Promise<void>[] = [];
    for (const set of this.byMerchant.values()) {
      for (const connection of set) {
        const subscription = connection.data.get(MERCHANT_KEY) as MerchantSubscription | undefined;
        if (subscription && which(subscription)) checks.push(this.recheck(connection, subscription));
      }
    }
    await Promise.all(checks);
  }

  /** The session must still be live and its user still a member of the business (decision 021). */
  private async recheck(connection: RealtimeConnection, subscription: MerchantSubscription) {
    const live = await findLiveSessionByTokenHash(this.deps.db, subscription.tokenHash, new Date());
    if (!live || live.user.id !== subscription.userId) {
      this.endMerchantFeed(connection, subscription, SIGNED_OUT);
      return;
    }
    if (!(await isMemberOf(this.deps.db, subscription.userId, subscription.merchantId)))
      this.endMerchantFeed(connection, subscription, NO_LONGER_MEMBER);
  }

  private endMerchantFeed(
    connection: RealtimeConnection,
    subscription: MerchantSubscription,
    reason: typeof SIGNED_OUT | typeof NO_LONGER_MEMBER,
  ) {
    if (connection.data.get(MERCHANT_KEY) !== subscription) return;
    connection.data.delete(MERCHANT_KEY);
    const set = this.byMerchant.get(subscription.merchantId);
    set?.delete(connection);
    if (set?.size === 0) this.byMerchant.delete(subscription.merchantId);
    connection.send(reason);
  }

  /**
   * While the shared state is not shared (Redis away), a revocation made on another instance is not heard:
   * owners are re-checked before each delivery then, and all at once when sharing resumes.
   */
  private async ownersStillSignedIn(owners: Set<RealtimeConnection>) {
    const status = this.state.status?.();
    if (!status) return;
    const changed = this.stateEpoch !== null && this.stateEpoch !== status.epoch;
    this.stateEpoch = status.epoch;
    if (status.mode === "shared" && !changed) return;
    if (changed) await this.recheckOwners(() => true);
    else {
      await Promise.all(
        [...owners].map((connection) => {
          const subscription = connection.data.get(MERCHANT_KEY) as MerchantSubscription | undefined;
          return subscription ? this.recheck(connection, subscription) : undefined;
        }),
      );
    }
  }

  async stop() {
    this.stopped = true;
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      this.runFlush();
    }
    await this.flushing?.catch(() => {});
    await this.unsubscribe?.();
  }

  /**
   * Coalesces: a flush starts FLUSH_DELAY_MS after the first commit that asks for one (so a burst of commits is
   * claimed in one query, not one each), one flush at a time, and one more if something was committed meanwhile.
   */
  notify = () => {
    if (this.stopped) return;
    if (this.flushing) {
      this.again = true;
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.runFlush();
    }, FLUSH_DELAY_MS);
  };

  private runFlush() {
    this.flushing = this.flush()
      .catch((error) => this.log.error({ err: error }, "payment events: publishing failed"))
      .finally(() => {
        this.flushing = null;
        if (this.again) {
          this.again = false;
          this.notify();
        }
      });
  }

  /**
   * Publishes every queued event. A short batch means the queue held nothing else this publisher could take: the
   * rest, if any, is another instance's publisher's (it publishes them); anything committed since has called
   * `notify`, which runs another flush; and the sweep catches what a missed wake-up left.
   */
  async flush() {
    for (;;) {
      const events = await repo.claimUnpublishedEvents(this.deps.db, CLAIM_BATCH);
      // One connection keeps the order of publishes; they need not wait for each other.
      await Promise.all(
        events.map((event) => {
          const message: Published = {
            eventId: event.id,
            event: event.type,
            paymentId: event.paymentId,
            merchantId: event.merchantId,
            reference: event.reference,
          };
          return this.state.publish(PAYMENT_EVENTS_CHANNEL, JSON.stringify(message));
        }),
      );
      for (const event of events) this.onPublished?.(event.id, event.type);
      if (events.length < CLAIM_BATCH) return;
    }
  }

  /**
   * Tells the owners' open dashboards that their inbox changed. Not an outbox event (such a transfer has no
   * payment): the indexer calls this after its commit, and a message lost here costs only the live refresh (the
   * inbox is read again on the next load or reconnection).
   */
  publishInbox(merchantIds: Iterable<string>, unmatched: UnmatchedTransfer[] = []) {
    for (const merchantId of merchantIds) {
      const transfers = unmatched
        .filter((t) => t.merchantId === merchantId)
        .map(({ id, to, amount }) => ({ id, to, amount }));
      const message: InboxMessage = { event: INBOX_EVENT, merchantId, transfers };
      this.state
        .publish(PAYMENT_EVENTS_CHANNEL, JSON.stringify(message))
        .catch((error) => this.log.warn({ err: error }, "payment events: inbox publish failed"));
    }
  }

  /** Tells the open pay pages of the business's address about a transfer to it that matched no payment. */
  private async deliverUnmatched(message: InboxMessage) {
    if (!message.transfers?.length) return;
    const listening = [...this.addressOf].some(
      ([reference, watched]) =>
        watched.merchantId === message.merchantId && this.byReference.get(reference)?.size,
    );
    if (!listening) return;
    // Credited meanwhile (its hash pasted on a pay page, assigned by the business): no longer news.
    const still = await repo.findUnmatchedTransferIds(
      this.deps.db,
      message.transfers.map((t) => t.id),
    );
    const transfers = message.transfers.filter((t) => still.has(t.id));
    for (const [reference, watched] of this.addressOf) {
      const pages = this.byReference.get(reference);
      if (!pages?.size) {
        this.addressOf.delete(reference);
        continue;
      }
      if (watched.merchantId !== message.merchantId) continue;
      for (const transfer of transfers) {
        if (transfer.to !== watched.address) continue;
        for (const connection of pages) {
          connection.send({ type: "unmatchedTransfer", reference, amount: transfer.amount });
        }
      }
    }
  }

  /** Builds the views only when this instance has someone listening (most events have nobody). */
  private async deliver(text: string) {
    let message: Published;
    try {
      message = JSON.parse(text) as Published;
    } catch {
      return;
    }
    const owners = this.byMerchant.get(message.merchantId);
    if (message.event === INBOX_EVENT) {
      for (const connection of owners ?? []) connection.send({ type: "merchantInboxUpdate" });
      await this.deliverUnmatched(message as unknown as InboxMessage);
      return;
    }
    const watched =
      message.reference === undefined
        ? this.byReference.size > 0
        : this.byReference.has(message.reference ?? "");
    if (!owners?.size && !watched) return;
    const [row] = await this.deps.db
      .select({ payment: payments, merchant: repo.publicMerchantColumns })
      .from(payments)
      .innerJoin(merchants, eq(merchants.id, payments.merchantId))
      .where(eq(payments.id, message.paymentId));
    if (!row) return;
    const pages = this.byReference.get(row.payment.reference);
    if (pages?.size) {
      const view = await publicView(this.deps, row.payment, row.merchant);
      for (const connection of pages) {
        connection.send({
          type: "paymentUpdate",
          eventId: message.eventId,
          event: message.event,
          payment: view,
        });
      }
    }
    if (owners?.size) await this.ownersStillSignedIn(owners);
    if (owners?.size) {
      const view = toPaymentResponse(row.payment, this.baseUrl());
      for (const connection of owners) {
        connection.send({
          type: "merchantPaymentUpdate",
          eventId: message.eventId,
          event: message.event,
          payment: view,
        });
      }
    }
  }

  private track(map: Map<string, Set<RealtimeConnection>>, key: string, connection: RealtimeConnection) {
    let set = map.get(key);
    if (!set) {
      set = new Set();
      map.set(key, set);
    }
    if (set.has(connection)) return;
    set.add(connection);
    connection.onClose(() => {
      set.delete(connection);
      if (set.size === 0 && map.get(key) === set) map.delete(key);
    });
  }

  private async subscribePayment(reference: string, connection: RealtimeConnection) {
    const found = await repo.findPaymentByReference(this.deps.db, reference);
    if (!found) {
      connection.send({
        type: "paymentError",
        reference,
        code: "NOT_FOUND",
        message: "No payment has this reference.",
      });
      return;
    }
    const mine = (connection.data.get("payments:references") as Set<string> | undefined) ?? new Set<string>();
    if (!mine.has(reference) && mine.size >= MAX_REFERENCES_PER_CONNECTION) {
      connection.send({
        type: "paymentError",
        reference,
        code: "RATE_LIMITED",
        message: "Too many subscriptions.",
      });
      return;
    }
    mine.add(reference);
    connection.data.set("payments:references", mine);
    this.track(this.byReference, reference, connection);
    this.addressOf.set(reference, {
      merchantId: found.payment.merchantId,
      address: found.payment.receivingAddress,
    });
    connection.send({
      type: "paymentUpdate",
      eventId: null,
      event: "payment.snapshot",
      payment: await publicView(this.deps, found.payment, found.merchant),
    });
  }

  /** Authorised by the session cookie the browser sent on the /ws upgrade request. */
  private async subscribeMerchant(connection: RealtimeConnection) {
    const token = connection.cookies[SESSION_COOKIE];
    const tokenHash = token && token.length <= 100 ? hashToken(token) : null;
    const session = tokenHash
      ? await findLiveSessionByTokenHash(this.deps.db, tokenHash, new Date())
      : undefined;
    if (!session) {
      connection.send({ type: "merchantError", code: "UNAUTHENTICATED", message: "You are not signed in." });
      return;
    }
    // Any member may watch the business's payments; a removed one, or one without the second factor the
    // business requires, is refused like on the API (decision 021).
    let merchant: { id: string } | null;
    try {
      merchant = await findMerchantOfMember(this.deps.db, session.user.id);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      connection.send({ type: "merchantError", code: error.code, message: error.message });
      return;
    }
    if (!merchant) {
      connection.send({
        type: "merchantError",
        code: "NOT_FOUND",
        message: "You have not registered a business yet.",
      });
      return;
    }
    const previous = connection.data.get(MERCHANT_KEY) as MerchantSubscription | undefined;
    if (previous && previous.merchantId !== merchant.id)
      this.byMerchant.get(previous.merchantId)?.delete(connection);
    const subscription: MerchantSubscription = {
      merchantId: merchant.id,
      userId: session.user.id,
      tokenHash: tokenHash!,
    };
    connection.data.set(MERCHANT_KEY, subscription);
    this.track(this.byMerchant, merchant.id, connection);
    // The session may have ended while it was being read: check once more now that the feed is registered.
    await this.recheck(connection, subscription);
    if (connection.data.get(MERCHANT_KEY) !== subscription) return;
    connection.send({ type: "merchantSubscribed", merchantId: merchant.id });
  }
}
