import { eq, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import type { Db } from "../../db/client.ts";
import { rowsOf } from "../../db/client.ts";
import {
  merchants,
  paymentEmails,
  payments,
  users,
  webhookDeliveries,
  webhookEndpoints,
} from "../../db/schema.ts";
import { timeLocaleOf } from "../../lib/email-html.ts";
import { readerLocale } from "../../lib/i18n.ts";
import type { Mailer } from "../../lib/mailer.ts";
import * as paymentsRepo from "../payments/repository.ts";
import { sendWebhook } from "../webhooks/http-sender.ts";
import { signatureHeader } from "../webhooks/signing.ts";
import type { TargetPolicy } from "../webhooks/ssrf.ts";
import { dispatchEvents } from "./dispatch.ts";
import { renderPaymentEmail } from "./payment-emails.ts";

/** Standard Webhooks' schedule: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 24 h (then failed). */
export const WEBHOOK_RETRY_DELAYS_MS = [
  0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 86_400_000,
];
/** Emails: at once, then 1 min, 10 min, 1 h, 6 h (then failed). */
export const EMAIL_RETRY_DELAYS_MS = [0, 60_000, 600_000, 3_600_000, 21_600_000];

export type NotificationsOptions = {
  /** Delay before each attempt (index 0: the first); retries stop after the last (tests shorten them). */
  retryDelaysMs: number[];
  emailRetryDelaysMs: number[];
  /** The safety net: how often the runner looks for due work without being woken. */
  pollMs: number;
  /** A webhook request that has not been answered within this is a failed attempt (retried). */
  timeoutMs: number;
  /** How long a claimed delivery or email is this runner's; after it, another runner may retry it. */
  leaseMs: number;
  /** Webhook requests in flight at once on this instance. */
  concurrency: number;
};

export const DEFAULT_NOTIFICATIONS_OPTIONS: NotificationsOptions = {
  retryDelaysMs: WEBHOOK_RETRY_DELAYS_MS,
  emailRetryDelaysMs: EMAIL_RETRY_DELAYS_MS,
  pollMs: 1000,
  timeoutMs: 15_000,
  leaseMs: 60_000,
  concurrency: 32,
};

const DISPATCH_BATCH = 200;
const EMAIL_BATCH = 10;
const ERROR_MAX = 300;

type ClaimedDelivery = {
  id: string;
  messageId: string;
  endpointId: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | string | null;
};

export type NotificationsDeps = {
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  allowPrivate: TargetPolicy;
  publicUrl: string;
  explorerUrl: string | undefined;
  tokenSymbol: string;
};

/** Whether an answer (or none) is worth another attempt: network errors, timeouts, 408, 429 and 5xx. */
export function isRetryable(statusCode: number | null) {
  return statusCode === null || statusCode === 408 || statusCode === 429 || statusCode >= 500;
}

/**
 * Turns the outbox into webhook deliveries and payment emails and sends them (decision 016), on every instance:
 * woken when an event is committed (here, or heard from another instance), and every `pollMs` as a safety net.
 * Work is claimed with FOR UPDATE SKIP LOCKED and leased, so instances share it and never send one twice at once.
 */
export class NotificationsRuntime {
  private options: NotificationsOptions;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private pollTimer: NodeJS.Timeout | null = null;
  private inFlight = new Set<Promise<void>>();
  /** Called after each webhook attempt (tests and the bench watch it). */
  onAttempt: ((deliveryId: string, outcome: string) => void) | null = null;

  constructor(
    private deps: NotificationsDeps,
    options: Partial<NotificationsOptions> = {},
  ) {
    this.options = { ...DEFAULT_NOTIFICATIONS_OPTIONS, ...options };
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedulePoll();
    this.wake();
  }

  async stop() {
    this.stopped = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = null;
    await this.running?.catch(() => {});
    await this.pumping;
    await this.mailing;
    await Promise.all([...this.inFlight]);
  }

  private schedulePoll() {
    this.pollTimer = setTimeout(() => {
      this.wake();
      if (!this.stopped) this.schedulePoll();
    }, this.options.pollMs);
    this.pollTimer.unref();
  }

  /** Runs a pass now (or once more after the current one). */
  wake = () => {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((error) => this.deps.log.warn({ err: error }, "notifications: pass failed"))
      .finally(() => {
        this.running = null;
        if (this.again && !this.stopped) {
          this.again = false;
          this.wake();
        }
      });
  };

  /** Stores the rows of new events, then starts the due webhook sends and emails. */
  private async pass() {
    for (;;) {
      const result = await dispatchEvents(this.deps.db, {
        limit: DISPATCH_BATCH,
        baseUrl: this.deps.publicUrl,
      });
      if (result.events < DISPATCH_BATCH) break;
    }
    // Neither waits for the other: a slow mail server never holds back a webhook, nor the next dispatch.
    void this.mailLoop();
    await this.refill();
  }

  private mailing: Promise<void> | null = null;
  private mailAgain = false;

  private mailLoop(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.mailing) {
      this.mailAgain = true;
      return this.mailing;
    }
    this.mailing = this.sendDueEmails()
      .catch((error) => this.deps.log.warn({ err: error }, "payment emails: pass failed"))
      .finally(() => {
        this.mailing = null;
        if (this.mailAgain) {
          this.mailAgain = false;
          void this.mailLoop();
        }
      });
    return this.mailing;
  }

  private pumping: Promise<void> | null = null;
  private pumpAgain = false;

  /** Claims due deliveries into the free slots (one claim at a time; once more if asked meanwhile). */
  private refill = (): Promise<void> => {
    if (this.stopped) return Promise.resolve();
    if (this.pumping) {
      this.pumpAgain = true;
      return this.pumping;
    }
    this.pumping = this.pumpWebhooks()
      .catch((error) => this.deps.log.warn({ err: error }, "webhooks: claim failed"))
      .finally(() => {
        this.pumping = null;
        if (this.pumpAgain) {
          this.pumpAgain = false;
          void this.refill();
        }
      });
    return this.pumping;
  };

  // ---- Webhooks ----

  private async pumpWebhooks() {
    while (!this.stopped) {
      const room = this.options.concurrency - this.inFlight.size;
      if (room <= 0) return;
      const claimed = await this.claimDeliveries(room);
      for (const delivery of claimed) {
        const task = this.attempt(delivery)
          .catch((error) => this.deps.log.warn({ err: error }, "webhooks: attempt failed"))
          .finally(() => {
            this.inFlight.delete(task);
            // Slots are refilled in batches (half the slots free, or all of them): one claim per batch, not
            // one per delivery. A retry due at once is claimed then too.
            if (this.inFlight.size <= this.options.concurrency / 2) void this.refill();
          });
        this.inFlight.add(task);
      }
      if (claimed.length < room) return;
    }
  }

  /** Due deliveries of enabled endpoints, leased to this runner; the attempt is counted now. */
  private async claimDeliveries(limit: number): Promise<ClaimedDelivery[]> {
    const now = new Date();
    const lease = new Date(now.getTime() + this.options.leaseMs);
    const rows = rowsOf<ClaimedDelivery>(
      await this.deps.db.execute(sql`
        with due as (
          select d.id from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
          where d.status = 'pending' and d.next_attempt_at <= ${now.toISOString()}::timestamptz
            and (d.locked_until is null or d.locked_until <= ${now.toISOString()}::timestamptz) and e.enabled
          order by d.next_attempt_at limit ${limit}
          for update of d skip locked
        )
        update webhook_deliveries d
        set locked_until = ${lease.toISOString()}::timestamptz, attempts = d.attempts + 1,
            last_attempt_at = ${now.toISOString()}::timestamptz
        from due, webhook_endpoints e
        where d.id = due.id and e.id = d.endpoint_id
        returning d.id, d.message_id as "messageId", d.endpoint_id as "endpointId", d.body, d.attempts, e.url,
          e.secret, e.previous_secret as "previousSecret",
          e.previous_secret_expires_at as "previousSecretExpiresAt"`),
    );
    return rows;
  }

  private async attempt(delivery: ClaimedDelivery) {
    const now = new Date();
    const secrets = [delivery.secret];
    if (
      delivery.previousSecret &&
      delivery.previousSecretExpiresAt &&
      new Date(delivery.previousSecretExpiresAt) > now
    )
      secrets.push(delivery.previousSecret);
    const timestamp = Math.floor(now.getTime() / 1000);
    const result = await sendWebhook(
      {
        url: delivery.url,
        body: delivery.body,
        headers: {
          "webhook-id": delivery.messageId,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signatureHeader(secrets, delivery.messageId, timestamp, delivery.body),
        },
      },
      { allowPrivate: this.deps.allowPrivate, timeoutMs: this.options.timeoutMs },
    );
    const statusCode = result.kind === "response" ? result.statusCode : null;
    const delivered = statusCode !== null && statusCode >= 200 && statusCode < 300;
    // A target refused after DNS (a private address) is refused again next time: no retry.
    const retry =
      !delivered &&
      !(result.kind === "error" && !result.retryable) &&
      isRetryable(statusCode) &&
      delivery.attempts < this.options.retryDelaysMs.length;
    const next = retry ? new Date(Date.now() + (this.options.retryDelaysMs[delivery.attempts] ?? 0)) : null;
    const outcome = delivered ? "delivered" : retry ? "pending" : "failed";
    // Written only while the attempt is still ours (a runner that outlived its lease does not overwrite).
    await this.deps.db
      .update(webhookDeliveries)
      .set({
        status: outcome,
        nextAttemptAt: next,
        lockedUntil: null,
        lastStatusCode: statusCode,
        lastError: result.kind === "error" ? result.error.slice(0, ERROR_MAX) : null,
        lastResponse: result.kind === "response" ? result.excerpt : null,
        ...(delivered ? { deliveredAt: new Date() } : {}),
      })
      .where(
        sql`${webhookDeliveries.id} = ${delivery.id} and ${webhookDeliveries.attempts} = ${delivery.attempts}`,
      );
    if (statusCode === 410) {
      await this.deps.db
        .update(webhookEndpoints)
        .set({ enabled: false, disabledReason: "The endpoint answered 410 Gone.", updatedAt: new Date() })
        .where(eq(webhookEndpoints.id, delivery.endpointId));
      this.deps.log.info({ endpointId: delivery.endpointId }, "webhooks: endpoint answered 410, disabled");
    }
    this.onAttempt?.(delivery.id, outcome);
  }

  // ---- Emails ----

  private async sendDueEmails() {
    while (!this.stopped) {
      const claimed = await this.claimEmails(EMAIL_BATCH);
      for (const email of claimed) await this.sendEmail(email);
      if (claimed.length < EMAIL_BATCH) return;
    }
  }

  private async claimEmails(limit: number) {
    const now = new Date();
    const lease = new Date(now.getTime() + this.options.leaseMs);
    return rowsOf<{
      id: string;
      eventId: string;
      paymentId: string;
      kind: "merchant" | "payer";
      recipient: string;
      attempts: number;
    }>(
      await this.deps.db.execute(sql`
        update payment_emails set locked_until = ${lease.toISOString()}::timestamptz, attempts = attempts + 1
        where id in (
          select id from payment_emails
          where status = 'pending' and next_attempt_at <= ${now.toISOString()}::timestamptz
            and (locked_until is null or locked_until <= ${now.toISOString()}::timestamptz)
          order by next_attempt_at limit ${limit} for update skip locked)
        returning id, event_id as "eventId", payment_id as "paymentId", kind, recipient, attempts`),
    );
  }

  private async sendEmail(email: {
    id: string;
    eventId: string;
    paymentId: string;
    kind: "merchant" | "payer";
    recipient: string;
    attempts: number;
  }) {
    const mine = sql`${paymentEmails.id} = ${email.id} and ${paymentEmails.attempts} = ${email.attempts}`;
    try {
      const [row] = await this.deps.db
        .select({
          payment: payments,
          merchantName: merchants.name,
          payLanguage: merchants.payLanguage,
          ownerTimeZone: users.timeZone,
          ownerLocale: users.locale,
        })
        .from(payments)
        .innerJoin(merchants, eq(merchants.id, payments.merchantId))
        .innerJoin(users, eq(users.id, merchants.ownerId))
        .where(eq(payments.id, email.paymentId));
      if (!row) throw new Error("payment not found");
      const [event] = rowsOf<{ type: string }>(
        await this.deps.db.execute(sql`select type from payment_events where id = ${email.eventId}`),
      );
      const transfers = await paymentsRepo.listTransfersOfPayment(this.deps.db, email.paymentId);
      // The business's notification is in its owner's zone and language; a payer's zone is not known (UTC),
      // their language is the one they read the checkout in when they gave their email there (a link's page), else
      // the one the business's pay pages open in (decision 038), else English.
      const merchant = email.kind === "merchant";
      const payerLanguage = row.payment.payerLocale ?? row.payLanguage;
      const language = merchant ? readerLocale(row.ownerLocale) : (payerLanguage ?? "en");
      const mail = renderPaymentEmail({
        kind: email.kind,
        to: email.recipient,
        eventType: event?.type ?? "payment.completed",
        payment: row.payment,
        merchantName: row.merchantName,
        tokenSymbol: this.deps.tokenSymbol,
        transfers,
        explorerUrl: this.deps.explorerUrl,
        publicUrl: this.deps.publicUrl,
        reader: {
          timeZone: merchant ? row.ownerTimeZone : null,
          locale: timeLocaleOf(merchant ? row.ownerLocale : payerLanguage, language),
        },
        language,
      });
      await this.deps.mailer.send(mail);
      await this.deps.db
        .update(paymentEmails)
        .set({ status: "sent", sentAt: new Date(), lockedUntil: null, lastError: null })
        .where(mine);
    } catch (error) {
      const delays = this.options.emailRetryDelaysMs;
      const retry = email.attempts < delays.length;
      this.deps.log.warn({ err: error, emailId: email.id }, "payment email: send failed");
      await this.deps.db
        .update(paymentEmails)
        .set({
          status: retry ? "pending" : "failed",
          nextAttemptAt: retry ? new Date(Date.now() + (delays[email.attempts] ?? 0)) : null,
          lockedUntil: null,
          lastError: String((error as Error).message ?? error).slice(0, ERROR_MAX),
        })
        .where(mine);
    }
  }
}
