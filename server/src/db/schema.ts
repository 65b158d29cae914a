import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
// Relative, not @common: drizzle-kit reads this file without the path aliases.
import type { BuyProblemDetails } from "../../../common/src/buy.ts";
import type { Locale } from "../../../common/src/locales.ts";
import { PAYMENT_STATUSES } from "../../../common/src/payment-values.ts";

/** Facts about this installation (when it was created, ...): one row per key. */
export const appMeta = pgTable("app_meta", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    username: text("username").notNull(),
    /** Verified email only; an address awaiting its link is in `pendingEmail`, so nobody can squat another's. */
    email: text("email"),
    pendingEmail: text("pending_email"),
    passwordHash: text("password_hash"),
    theme: text("theme", { enum: ["light", "dark", "system"] })
      .notNull()
      .default("dark"),
    notifyPaymentEmails: boolean("notify_payment_emails").notNull().default(true),
    /**
     * The name to greet with, from a social sign-in's profile ("Bea Santos"; the username is generated from it,
     * "google_bea_santos"). Null for accounts without one.
     */
    displayName: text("display_name"),
    /**
     * The business this user's requests act for (decision 021); null = the one they own. Only a pointer: every
     * merchant query re-checks the membership and role inside itself.
     */
    activeMerchantId: text("active_merchant_id").references((): AnyPgColumn => merchants.id, {
      onDelete: "set null",
    }),
    /**
     * The IANA time zone and the language the browser reported at the last registration, sign-in or profile
     * visit: emails show times in them. Null until one was reported (emails then say UTC, in English).
     */
    timeZone: text("time_zone"),
    locale: text("locale"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_username_lower_key").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    /** SHA-256 of the cookie token: a stolen database row cannot be turned into a cookie. */
    tokenHash: text("token_hash").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    userAgent: text("user_agent"),
    ip: text("ip"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("sessions_user_id_idx").on(t.userId)],
);

/** Single-use links sent by email (password reset, email verification); only the token's hash is kept. */
export const emailTokens = pgTable(
  "email_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: ["password_reset", "email_verification"] }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    email: text("email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("email_tokens_user_id_idx").on(t.userId)],
);

/**
 * Wallet addresses an account has proven it controls (Sign-In with Ethereum). An address belongs to at most one
 * account, whatever the chain: the same key signs on every EVM chain. Stored EIP-55 checksummed, unique on lower().
 */
export const userWallets = pgTable(
  "user_wallets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    /** The chain id of the message that proved it (where an EIP-1271 contract wallet was checked). */
    chainId: integer("chain_id").notNull(),
    provenBy: text("proven_by", { enum: ["siwe_sign_in", "siwe_link"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("user_wallets_address_lower_key").on(sql`lower(${t.address})`),
    index("user_wallets_user_id_idx").on(t.userId),
  ],
);

// ---- Merchants and payments (see /docs/decisions/006-payment-matching.md) ----

const baseUnits = (name: string) => numeric(name, { precision: 78, scale: 0, mode: "bigint" });

export const merchants = pgTable(
  "merchants",
  {
    id: text("id").primaryKey(),
    ownerId: text("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    businessType: text("business_type").notNull(),
    contactEmail: text("contact_email").notNull(),
    website: text("website"),
    description: text("description"),
    logoUrl: text("logo_url"),
    /** EIP-55 checksummed; proven by a signature (`walletVerifiedAt`). */
    walletAddress: text("wallet_address").notNull(),
    walletVerifiedAt: timestamp("wallet_verified_at", { withTimezone: true }).notNull(),
    /** Underpayment the merchant accepts as paid, in basis points of the amount due (0 = exact). */
    toleranceBps: integer("tolerance_bps").notNull().default(0),
    /** Pay page appearance: accent colour (#rrggbb, null = the platform's) and theme ("auto" = the payer's). */
    brandColor: text("brand_color"),
    pageTheme: text("page_theme", { enum: ["auto", "light", "dark"] })
      .notNull()
      .default("auto"),
    /** The language the pay pages open in when the payer has chosen none (a LOCALES tag; null = the browser's). */
    payLanguage: text("pay_language").$type<Locale>(),
    /** Every sign-in of the business's people needs a second factor (decision 019; members once teams exist). */
    requireTwoFactor: boolean("require_two_factor").notNull().default(false),
    /** Tip percentages the counter (`/pos`) offers, in order; empty = no tips (decision 033). */
    tipPresets: integer("tip_presets").array().notNull().default(sql`'{}'::integer[]`),
    /** Origins whose pages may frame the checkout (the pay button, decision 035); normalized, https. */
    embedOrigins: text("embed_origins").array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("merchants_owner_id_key").on(t.ownerId),
    uniqueIndex("merchants_wallet_address_lower_key").on(sql`lower(${t.walletAddress})`),
  ],
);

/** Single-use nonces of wallet ownership proofs (EIP-191 messages the server issued). */
export const walletChallenges = pgTable(
  "wallet_challenges",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    nonce: text("nonce").notNull().unique(),
    message: text("message").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (t) => [index("wallet_challenges_user_id_idx").on(t.userId)],
);

/**
 * Reusable payment links (issue 35): one page `/l/{slug}`, sold many times; each "Pay" makes a payment request of
 * its own (`payments.link_id`). A product of the point of sale is a switched-on fixed-price link. Amounts are the
 * decimal strings the merchant typed (USD with 2 decimals, CPXTB with 3), as a payment request takes them.
 */
export const paymentLinks = pgTable(
  "payment_links",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    slug: text("slug").notNull().unique(),
    title: text("title").notNull(),
    description: text("description"),
    /** An https URL or a small data:image, like the business's logo. */
    imageUrl: text("image_url"),
    pricing: text("pricing", { enum: ["fixed", "open"] }).notNull(),
    currency: text("currency", { enum: ["USD", "CPXTB"] }).notNull(),
    /** The fixed price (pricing fixed) or the least a payer may choose (pricing open). */
    amount: text("amount"),
    minAmount: text("min_amount"),
    /** How many requests may hold or have sold a unit; null: no limit. */
    quantityLimit: integer("quantity_limit"),
    active: boolean("active").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("payment_links_merchant_idx").on(t.merchantId, t.id)],
);

export const payments = pgTable(
  "payments",
  {
    id: text("id").primaryKey(),
    /** Public, unguessable (128 bits, base64url): the pay link. */
    reference: text("reference").notNull().unique(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    chainId: integer("chain_id").notNull(),
    tokenAddress: text("token_address").notNull(),
    tokenDecimals: integer("token_decimals").notNull(),
    receivingAddress: text("receiving_address").notNull(),
    /** Null when the merchant asked for an amount in CPXTB. */
    amountUsdCents: bigint("amount_usd_cents", { mode: "bigint" }),
    priceE18: baseUnits("price_e18"),
    priceSource: text("price_source"),
    priceAt: timestamp("price_at", { withTimezone: true }),
    /** The amount before its tag (rounded up to 3 decimals) and the tag `t` (micro-tokens). */
    baseAmount: baseUnits("base_amount").notNull(),
    tag: integer("tag").notNull(),
    /** What the payer must send: baseAmount + tag * 10^(decimals-6). */
    amountDue: baseUnits("amount_due").notNull(),
    toleranceBps: integer("tolerance_bps").notNull(),
    /** Confirmed credits and all (also unconfirmed) credits, kept in step with the credited transfers. */
    amountReceived: baseUnits("amount_received").notNull().default(sql`0`),
    amountSeen: baseUnits("amount_seen").notNull().default(sql`0`),
    /**
     * What the payer is asked to send now (QR, link, copy, Pay button): the amount due, or for a partial payment
     * its reserved remaining amount (a row of payment_amounts); 0 once covered.
     */
    amountRequested: baseUnits("amount_requested").notNull().default(sql`0`),
    overpaid: boolean("overpaid").notNull().default(false),
    /**
     * The sum of the payment's recorded refunds (decision 018): a summary beside the status, never a status. Kept
     * in step with `refunds` by the conditional update that records one (`amount_received - amount_refunded`
     * never goes below the refund).
     */
    amountRefunded: baseUnits("amount_refunded").notNull().default(sql`0`),
    description: text("description"),
    orderId: text("order_id"),
    successUrl: text("success_url"),
    payerEmail: text("payer_email"),
    /**
     * The language the payer read a payment link's page in when it made this payment (with or without their email):
     * their receipt is written in it (issue 37). Null for a payment created by the business or its API.
     */
    payerLocale: text("payer_locale").$type<Locale>(),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull().default("pending"),
    /** True while the amount is reserved (open, or expired inside its monitoring window). */
    live: boolean("live").notNull().default(true),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    monitorUntil: timestamp("monitor_until", { withTimezone: true }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    /**
     * For a payment asked in CPXTB (no locked price): the USD rate when it was paid, so reports can value it.
     * Null when no price could be read then (reports count those as without a USD value).
     */
    completedPriceE18: baseUnits("completed_price_e18"),
    completedPriceAt: timestamp("completed_price_at", { withTimezone: true }),
    regeneratedFromId: text("regenerated_from_id"),
    regeneratedToId: text("regenerated_to_id"),
    /** The member who created it from the dashboard or the counter (null: the API, a regeneration, older rows). */
    createdBy: text("created_by"),
    /** The payment link this request was made from (issue 35), or null. */
    linkId: text("link_id").references(() => paymentLinks.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("payments_merchant_created_idx").on(t.merchantId, t.id),
    index("payments_link_idx").on(t.linkId, t.id),
    index("payments_status_expires_idx").on(t.status, t.expiresAt),
    index("payments_match_idx").on(t.chainId, t.tokenAddress, t.receivingAddress, t.amountDue),
    // Reports: a merchant's payments by creation time (range scans for totals, buckets and the CSV).
    index("payments_merchant_created_at_idx").on(t.merchantId, t.createdAt, t.id),
    // The history search `q` (a substring of description, order id or reference): trigrams (pg_trgm) of the
    // search key, which also finds 2-letter terms (`paymentSearchKey`), beside the merchant (btree_gin), so a
    // search reads only its business's entries (decision 037: a 2-letter term's trigrams over every business
    // intersected with the business's 100,000 rows cost 60 ms; 2-10 ms in one index).
    index("payments_merchant_search_trgm_idx").using(
      "gin",
      t.merchantId,
      sql`(${paymentSearchKey(t)}) gin_trgm_ops`,
    ),
    // The indexer's watched addresses: distinct receiving addresses of matchable payments (MATCHABLE_STATUSES).
    index("payments_matchable_address_idx")
      .on(t.receivingAddress)
      .where(sql`${t.status} in ('pending', 'processing', 'partial', 'expired')`),
    // The expiry job's live expired payments whose monitoring window is over.
    index("payments_live_closed_monitor_idx")
      .on(t.monitorUntil)
      .where(sql`${t.live} and ${t.status} in ('expired', 'cancelled')`),
  ],
);

/**
 * The reports' sums kept beside the payments (issue 39, decision 039): per merchant, link, status and quarter hour
 * of creation (every time zone's midnights fall on one, so any zone's days and weeks add up from them), and again
 * per UTC day (so a week or a year is mostly a few day rows), what the summary adds up per payment. Written only by the statement triggers on `payments` (migration 0028), as
 * deltas in the same transaction as the change: one row more per statement, no row shared between writers, so no
 * lock or deadlock between the indexer, the expiry job and the API. A job adds each key's rows into one
 * (`compacted`). Amounts are normalised to 18 decimals, USD in cents rounded per payment, as the row-based sums.
 */
export const paymentSums = pgTable(
  "payment_sums",
  {
    id: bigserial("id", { mode: "bigint" }).primaryKey(),
    merchantId: text("merchant_id").notNull(),
    linkId: text("link_id"),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull(),
    /** A quarter hour, or a whole day in UTC: a week's full days are read as days, its edges as quarter hours. */
    unit: text("unit", { enum: ["quarter", "day"] }).notNull(),
    /** The first instant of the quarter hour or of the UTC day. */
    slot: timestamp("slot", { withTimezone: true }).notNull(),
    count: integer("count").notNull(),
    received: baseUnits("received").notNull(),
    usdCents: baseUnits("usd_cents").notNull(),
    unvalued: integer("unvalued").notNull(),
    due: baseUnits("due").notNull(),
    receivedCount: integer("received_count").notNull(),
    refundedCount: integer("refunded_count").notNull(),
    refunded: baseUnits("refunded").notNull(),
    refundedUsdCents: baseUnits("refunded_usd_cents").notNull(),
    /** False for a delta the compaction has not added in yet. */
    compacted: boolean("compacted").notNull().default(false),
  },
  (t) => [
    index("payment_sums_merchant_slot_idx").on(t.merchantId, t.unit, t.slot),
    index("payment_sums_pending_idx").on(t.id).where(sql`not ${t.compacted}`),
  ],
);

/**
 * The amounts a transfer may match, one row each while reserved (PAYMENTS.md, Unique tag and Matching 2): a live
 * payment's amount due, and a partial payment's remaining amount. Both take part in one unique index, so no two
 * live amounts at one address are ever equal; a row is deleted when its payment stops being live (or the remainder
 * changes).
 */
export const paymentAmounts = pgTable(
  "payment_amounts",
  {
    chainId: integer("chain_id").notNull(),
    tokenAddress: text("token_address").notNull(),
    receivingAddress: text("receiving_address").notNull(),
    amount: baseUnits("amount").notNull(),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["due", "remainder"] }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payment_amounts_key").on(t.chainId, t.tokenAddress, t.receivingAddress, t.amount),
    index("payment_amounts_payment_idx").on(t.paymentId, t.kind),
  ],
);

/**
 * What the history search looks in, as one expression: the description, the order id and the reference, joined by
 * a control character (U+0001) that a search term may not contain, so a match never spans two fields.
 */
export function paymentSearchText(t: {
  description: AnyPgColumn;
  orderId: AnyPgColumn;
  reference: AnyPgColumn;
}) {
  return sql`coalesce(${t.description}, '') || chr(1) || coalesce(${t.orderId}, '') || chr(1) || ${t.reference}`;
}

/**
 * The search text as the trigram index holds it (the query must repeat this expression exactly for the index to
 * serve it): lower-cased, every character outside ASCII replaced by U+0002, and one U+0001 at the end. So the key
 * holds only characters in U+0001-U+007F, and every character of it is followed by another: a term `t` occurs in
 * it exactly when the regular expression `t[\x01-\x7f]` matches, and from that pattern pg_trgm takes trigrams even
 * for a 2-letter term (`qx` gives `qxa`, ..., `qx9`, `qx `), where `%qx%` gives none and means reading every row
 * (decision 011). Characters outside ASCII and controls are word breaks for trigrams either way.
 */
export function paymentSearchKey(t: {
  description: AnyPgColumn;
  orderId: AnyPgColumn;
  reference: AnyPgColumn;
}) {
  return sql`regexp_replace(lower(${paymentSearchText(t)} || chr(1)), '[^\\x01-\\x7f]', chr(2), 'g')`;
}

/** Token Transfer logs to merchant addresses: each (chain, tx, log index) once; credited to at most one payment. */
export const chainTransfers = pgTable(
  "chain_transfers",
  {
    id: text("id").primaryKey(),
    chainId: integer("chain_id").notNull(),
    tokenAddress: text("token_address").notNull(),
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    blockHash: text("block_hash").notNull(),
    blockTime: timestamp("block_time", { withTimezone: true }),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    value: baseUnits("value").notNull(),
    /** The merchant whose address received it (the inbox owner). */
    merchantId: text("merchant_id").references(() => merchants.id, { onDelete: "set null" }),
    paymentId: text("payment_id").references(() => payments.id, { onDelete: "set null" }),
    creditedBy: text("credited_by", { enum: ["amount", "tx_hash", "merchant"] }),
    /** Set when a reorg took the log's block away; cleared if the log comes back. */
    orphanedAt: timestamp("orphaned_at", { withTimezone: true }),
    /**
     * An unmatched transfer a member said is not a payment (a top-up, a refund coming back): kept with the chain's
     * other transfers, left out of the inbox. Who did it is in the audit log.
     */
    dismissedAt: timestamp("dismissed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("chain_transfers_log_key").on(t.chainId, t.txHash, t.logIndex),
    index("chain_transfers_payment_idx").on(t.paymentId),
    index("chain_transfers_merchant_idx").on(t.merchantId, t.paymentId),
    index("chain_transfers_block_idx").on(t.chainId, t.tokenAddress, t.blockNumber),
  ],
);

/** Every status change of a payment, with its cause, written in the transaction that made it. */
export const paymentTimeline = pgTable(
  "payment_timeline",
  {
    id: text("id").primaryKey(),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    fromStatus: text("from_status"),
    toStatus: text("to_status").notNull(),
    cause: text("cause").notNull(),
    transferId: text("transfer_id"),
    blockNumber: bigint("block_number", { mode: "bigint" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("payment_timeline_payment_idx").on(t.paymentId, t.id)],
);

/**
 * The outbox: one row per payment event, read by two consumers that never lock each other's rows (decision 031):
 * the webhook and email dispatcher claims the event row itself (`dispatchedAt`), the live publisher claims its
 * row in `payment_events_unpublished`.
 */
export const paymentEvents = pgTable(
  "payment_events",
  {
    seq: bigserial("seq", { mode: "bigint" }).primaryKey(),
    id: text("id").notNull().unique(),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    merchantId: text("merchant_id").notNull(),
    type: text("type").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * When the event's webhook deliveries and emails were stored (decision 016); null while they have not been.
     * Claimed with FOR NO KEY UPDATE SKIP LOCKED: each event by exactly one dispatcher, in the transaction that
     * stores its rows; only dispatchers lock these rows.
     */
    dispatchedAt: timestamp("dispatched_at", { withTimezone: true }),
  },
  (t) => [index("payment_events_undispatched_idx").on(t.seq).where(sql`${t.dispatchedAt} is null`)],
);

/**
 * The live publisher's queue (decision 031): one row per event not yet published over shared state, added by a
 * trigger on `payment_events` in the transaction that adds the event, deleted by the publisher that claims it
 * (FOR UPDATE SKIP LOCKED: only publishers lock these rows, so the dispatcher never makes the publisher skip one).
 */
export const paymentEventsUnpublished = pgTable("payment_events_unpublished", {
  seq: bigint("seq", { mode: "bigint" })
    .primaryKey()
    .references(() => paymentEvents.seq, { onDelete: "cascade" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Indexer checkpoints: the hash of each block the indexer ended a range on (the newest is the cursor). */
export const indexerBlocks = pgTable(
  "indexer_blocks",
  {
    chainId: integer("chain_id").notNull(),
    tokenAddress: text("token_address").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    blockHash: text("block_hash").notNull(),
    /** The block's timestamp (the chain's time once the indexer has processed it); null on older rows. */
    blockTime: timestamp("block_time", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.tokenAddress, t.blockNumber] })],
);

/** Messages sent through the contact form; kept so none is lost when the email to the team fails. */
export const contactMessages = pgTable(
  "contact_messages",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    /** The signed-in sender, if any (kept when the account goes, as the message is still the team's). */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    ip: text("ip"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the team's copy was handed to the mail server; null while it has not been. */
    emailedAt: timestamp("emailed_at", { withTimezone: true }),
  },
  (t) => [index("contact_messages_created_at_idx").on(t.createdAt)],
);

// ---- Social sign-in and managed wallets (docs/decisions/012-social-sign-in-and-managed-wallets.md) ----

export const SOCIAL_PROVIDERS = ["google", "facebook", "twitter", "apple"] as const;

/**
 * A provider identity linked to an account. Found by (provider, subject) only: never by display name or email.
 * `email` is what the provider said (and whether it said it was verified); it is shown, never used to match.
 */
export const socialAccounts = pgTable(
  "social_accounts",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: SOCIAL_PROVIDERS }).notNull(),
    subject: text("subject").notNull(),
    name: text("name"),
    email: text("email"),
    emailVerified: boolean("email_verified").notNull().default(false),
    /** True when the identity came from the development sign-in page, not from the real provider. */
    development: boolean("development").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("social_accounts_provider_subject_key").on(t.provider, t.subject),
    index("social_accounts_user_id_idx").on(t.userId),
  ],
);

/**
 * The custodial wallet of an account: its address is derived from WALLET_MASTER_SEED at m/44'/60'/0'/0/<index>.
 * Only the index and the address are stored; the key is derived when signing and dropped after.
 */
export const managedWallets = pgTable("managed_wallets", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id),
  /** Never reused: a new account always gets a fresh index, even if an earlier row were removed. */
  addressIndex: bigserial("address_index", { mode: "number" }).notNull().unique(),
  address: text("address").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** The next nonce of every address the server signs for (managed wallets and the gas account), locked per send. */
export const walletSigners = pgTable("wallet_signers", {
  address: text("address").primaryKey(),
  nextNonce: integer("next_nonce").notNull().default(0),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

/** `confirmed`: mined with the chain's confirmations (final); `failed`: never sent, or reverted on chain. */
export const WALLET_SEND_STATUSES = ["reserved", "signed", "broadcast", "confirmed", "failed"] as const;

/**
 * Every transaction the server signs, written before it is broadcast: a retry with the same idempotency key finds
 * the row (and re-broadcasts the same signed bytes when needed), so nothing is ever sent twice.
 */
export const walletSends = pgTable(
  "wallet_sends",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    kind: text("kind", { enum: ["pay", "withdraw", "gas_topup"] }).notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    chainId: integer("chain_id").notNull(),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    /** Null for ETH (gas top-ups). */
    tokenAddress: text("token_address"),
    amountBase: baseUnits("amount_base").notNull(),
    paymentReference: text("payment_reference"),
    nonce: integer("nonce"),
    txHash: text("tx_hash"),
    /** The signed transaction (never a key): re-broadcast as is after a crash. */
    rawTx: text("raw_tx"),
    status: text("status", { enum: WALLET_SEND_STATUSES }).notNull().default("reserved"),
    error: text("error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("wallet_sends_idempotency_key").on(t.userId, t.idempotencyKey),
    uniqueIndex("wallet_sends_from_nonce_key")
      .on(t.chainId, t.fromAddress, t.nonce)
      .where(sql`${t.nonce} is not null`),
    index("wallet_sends_user_created_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * The treasury's durable send queue (decision 013): one row per order or claim (unique kind + ref), written
 * before anything is signed; the transaction that pays it is recorded before it is broadcast.
 */
export const TREASURY_SEND_STATUSES = ["queued", "signed", "confirmed", "failed"] as const;
export const treasurySends = pgTable(
  "treasury_sends",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["order", "claim"] }).notNull(),
    refId: text("ref_id").notNull(),
    chainId: integer("chain_id").notNull(),
    tokenAddress: text("token_address").notNull(),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    amount: baseUnits("amount").notNull(),
    status: text("status", { enum: TREASURY_SEND_STATUSES }).notNull().default("queued"),
    /** The nonce all of its signed attempts share, so at most one of them can ever be mined. */
    nonce: bigint("nonce", { mode: "bigint" }),
    /** The attempt that was mined (or the newest one while none is). */
    txHash: text("tx_hash"),
    blockNumber: bigint("block_number", { mode: "bigint" }),
    /** Why it waits or failed (daily cap, treasury balance, reverted), for the order page and the logs. */
    lastError: text("last_error"),
    signedAt: timestamp("signed_at", { withTimezone: true }),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("treasury_sends_ref_key").on(t.kind, t.refId),
    uniqueIndex("treasury_sends_nonce_key").on(t.chainId, t.fromAddress, t.nonce),
    index("treasury_sends_status_idx").on(t.status, t.createdAt),
  ],
);

/** Every signed transaction of a send (the first and its fee-bumped replacements), recorded before broadcast. */
export const treasuryAttempts = pgTable(
  "treasury_attempts",
  {
    txHash: text("tx_hash").primaryKey(),
    sendId: text("send_id")
      .notNull()
      .references(() => treasurySends.id, { onDelete: "cascade" }),
    nonce: bigint("nonce", { mode: "bigint" }).notNull(),
    maxFeePerGas: baseUnits("max_fee_per_gas").notNull(),
    maxPriorityFeePerGas: baseUnits("max_priority_fee_per_gas").notNull(),
    rawTx: text("raw_tx").notNull(),
    /** Set when the nonce was taken by a transaction that is not ours: this attempt can never be mined. */
    droppedAt: timestamp("dropped_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("treasury_attempts_send_idx").on(t.sendId, t.createdAt)],
);

/** The next nonce of a treasury account: its row lock serialises nonce allocation across instances. */
export const treasuryNonces = pgTable(
  "treasury_nonces",
  {
    chainId: integer("chain_id").notNull(),
    address: text("address").notNull(),
    nextNonce: bigint("next_nonce", { mode: "bigint" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.address] })],
);

export const BUY_ORDER_STATUSES = [
  "quoted",
  "confirming",
  "paid",
  "delivered",
  "expired",
  "underpaid",
  "late",
  "wrong_sender",
  "failed",
] as const;

/** Purchases of CPXTB: a locked quote, the verified payment, and the treasury send that delivers it. */
export const buyOrders = pgTable(
  "buy_orders",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    method: text("method", { enum: ["eth", "paypal"] }).notNull(),
    chainId: integer("chain_id").notNull(),
    buyerAddress: text("buyer_address").notNull(),
    treasuryAddress: text("treasury_address").notNull(),
    tokenDecimals: integer("token_decimals").notNull(),
    usdCents: bigint("usd_cents", { mode: "bigint" }).notNull(),
    tokenAmount: baseUnits("token_amount").notNull(),
    priceE18: baseUnits("price_e18").notNull(),
    ethUsdE18: baseUnits("eth_usd_e18"),
    /** Exact ETH due (wei) for an ETH order. */
    ethAmountWei: baseUnits("eth_amount_wei"),
    status: text("status", { enum: BUY_ORDER_STATUSES }).notNull().default("quoted"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** The paying ETH transaction: used by one order only. */
    payTxHash: text("pay_tx_hash").unique(),
    payFrom: text("pay_from"),
    payValueWei: baseUnits("pay_value_wei"),
    payBlock: bigint("pay_block", { mode: "bigint" }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    /** PayPal Orders v2 id and capture id. */
    paypalOrderId: text("paypal_order_id").unique(),
    paypalCaptureId: text("paypal_capture_id").unique(),
    /** Set for refund states: what happened, in words the buyer understands. */
    problem: text("problem"),
    /** Beside `problem`: its reason and values as strings, for the buyer's language (issue 37). */
    problemDetails: jsonb("problem_details").$type<BuyProblemDetails>(),
    refundDue: boolean("refund_due").notNull().default(false),
    /** A same-origin path to go back to afterwards (the pay page that sent the buyer here). */
    returnTo: text("return_to"),
    /**
     * Where the CPXTB goes when not to `buyer_address` (decision 032): the signed-in account's managed wallet,
     * decided by the server from the session when the order asked for it, never taken from the client.
     */
    deliverTo: text("deliver_to"),
    /**
     * SHA-256 of the owner cookie of the browser that created an order while signed out (decision 013): that
     * browser alone reads it. An order made signed in is its account's (`user_id`) and has none.
     */
    ownerTokenHash: text("owner_token_hash"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("buy_orders_open_idx").on(t.chainId, t.status, t.buyerAddress),
    index("buy_orders_refund_idx").on(t.refundDue),
  ],
);

/**
 * A message a buyer signs with a wallet to buy CPXTB for it (EIP-191), for one owner: `user:<id>` signed in,
 * `owner:<cookie hash>` signed out. Spent once.
 */
export const buyWalletChallenges = pgTable("buy_wallet_challenges", {
  id: text("id").primaryKey(),
  owner: text("owner").notNull(),
  address: text("address").notNull(),
  nonce: text("nonce").notNull().unique(),
  message: text("message").notNull(),
  expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  usedAt: timestamp("used_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * ETH sent to the treasury that pays no order (a second payment for an order already paid, a transfer from a
 * wallet with no open order that it fits): listed for refund with its sender until the operator refunds it.
 * Together with `buy_orders.pay_tx_hash` every ETH transfer to the treasury is accounted for exactly once.
 */
export const treasuryReceipts = pgTable(
  "treasury_receipts",
  {
    id: text("id").primaryKey(),
    chainId: integer("chain_id").notNull(),
    treasuryAddress: text("treasury_address").notNull(),
    txHash: text("tx_hash").notNull().unique(),
    fromAddress: text("from_address").notNull(),
    valueWei: baseUnits("value_wei").notNull(),
    block: bigint("block", { mode: "bigint" }).notNull(),
    blockTime: timestamp("block_time", { withTimezone: true }).notNull(),
    /** Why it pays no order, in words for the operator (and the buyer). */
    reason: text("reason").notNull(),
    /** The order it was sent for, when known (posted to it, or the sender's order it repeats). */
    relatedOrderId: text("related_order_id"),
    refundDue: boolean("refund_due").notNull().default(true),
    /** Set by the operator once refunded (or decided otherwise: `refund_due` false with a note). */
    refundTxHash: text("refund_tx_hash"),
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    note: text("note"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("treasury_receipts_refund_idx").on(t.refundDue)],
);

/** Free test-token claims: one row per claim, checked per account, wallet, device and IP over 24 h. */
export const tokenClaims = pgTable(
  "token_claims",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    walletAddress: text("wallet_address").notNull(),
    deviceId: text("device_id").notNull(),
    ip: text("ip").notNull(),
    chainId: integer("chain_id").notNull(),
    amount: baseUnits("amount").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("token_claims_user_idx").on(t.userId, t.createdAt),
    index("token_claims_wallet_idx").on(t.walletAddress, t.createdAt),
    index("token_claims_device_idx").on(t.deviceId, t.createdAt),
    index("token_claims_ip_idx").on(t.ip, t.createdAt),
  ],
);

// ---- Webhooks and payment emails (docs/decisions/016-webhooks.md) ----

/**
 * A merchant's webhook endpoint. The signing secret must be recoverable to sign, so it is stored as is (there is
 * no key to encrypt it with yet; decision 016); it is returned once, at creation or rotation. During a rotation's
 * overlap window the previous secret signs too.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: text("events").array().notNull(),
    enabled: boolean("enabled").notNull().default(true),
    /** Why the server disabled it (an endpoint that answered 410); null when the merchant did, or enabled. */
    disabledReason: text("disabled_reason"),
    secret: text("secret").notNull(),
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("webhook_endpoints_merchant_idx").on(t.merchantId, t.createdAt)],
);

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;

/**
 * One event to one endpoint: stored before it is sent, one `webhook-id` (`messageId`) for all its attempts.
 * `eventId` is null for a test event. Claimed by a runner with FOR UPDATE SKIP LOCKED, then leased
 * (`lockedUntil`) while the request is in flight: a runner that dies mid-send leaves it to be retried.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    messageId: text("message_id").notNull().unique(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    merchantId: text("merchant_id").notNull(),
    eventId: text("event_id"),
    eventType: text("event_type").notNull(),
    /** The JSON body, fixed when the delivery is stored: every attempt sends the same bytes. */
    body: text("body").notNull(),
    status: text("status", { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    /** The start of the last answer's body (at most 1 KB). */
    lastResponse: text("last_response"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_endpoint_key").on(t.eventId, t.endpointId),
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt),
  ],
);

/**
 * Payment emails (the merchant's notification, the payer's receipt): one row per (event, recipient kind),
 * unique, stored with the event's dispatch; sent once (a send whose lease ran out is tried again).
 */
export const paymentEmails = pgTable(
  "payment_emails",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id").notNull(),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["merchant", "payer"] }).notNull(),
    recipient: text("recipient").notNull(),
    status: text("status", { enum: ["pending", "sent", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastError: text("last_error"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("payment_emails_event_kind_key").on(t.eventId, t.kind),
    index("payment_emails_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
  ],
);

// ---- API keys and the server-to-server API (docs/decisions/015-api-keys.md) ----

/** A merchant's keys for /api/v1: only the secret's SHA-256 is kept (256 random bits need no slow hash). */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** `payments:read`, `payments:write`. */
    scopes: text("scopes").array().notNull(),
    /** The secret's first characters (`cpx_live_abcd`), shown to tell keys apart. */
    prefix: text("prefix").notNull(),
    secretHash: text("secret_hash").notNull().unique(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** Updated at most about once a minute per key. */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("api_keys_merchant_idx").on(t.merchantId, t.createdAt)],
);

/**
 * Idempotency-Key of `POST /api/v1/payments`, per merchant: the first request inserts the row (the unique index
 * decides between concurrent ones), creates the payment and records its id; a retry with the same body gets that
 * payment, another body 409.
 */
export const apiIdempotencyKeys = pgTable(
  "api_idempotency_keys",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** SHA-256 of the validated request body in canonical JSON. */
    requestHash: text("request_hash").notNull(),
    /** Null while the first request is creating the payment. */
    paymentId: text("payment_id").references(() => payments.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("api_idempotency_keys_merchant_key").on(t.merchantId, t.key)],
);

// ---- Refunds (docs/decisions/018-refunds.md) ----

/**
 * A refund the merchant sent from its own wallet, recorded only once the server verified its transfer on chain
 * (token, from the merchant's address, to an address of the payer, amount, confirmations). One row per
 * transaction: the unique key refuses a transaction recorded twice, for this payment or another.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: text("id").primaryKey(),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    merchantId: text("merchant_id").notNull(),
    chainId: integer("chain_id").notNull(),
    tokenAddress: text("token_address").notNull(),
    txHash: text("tx_hash").notNull(),
    logIndex: integer("log_index").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    blockTime: timestamp("block_time", { withTimezone: true }),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    amount: baseUnits("amount").notNull(),
    /** The refund link the payer gave the address through, if any. */
    refundRequestId: text("refund_request_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("refunds_tx_key").on(t.chainId, t.txHash),
    index("refunds_payment_idx").on(t.paymentId, t.createdAt),
  ],
);

/**
 * A refund link: the payer opens it and gives the address to refund to. Only the token's SHA-256 is stored; the
 * link is single use (`submittedAt`) and expires.
 */
export const refundRequests = pgTable(
  "refund_requests",
  {
    id: text("id").primaryKey(),
    paymentId: text("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    merchantId: text("merchant_id").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** EIP-55 checksummed, set once by the payer. */
    address: text("address"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("refund_requests_payment_idx").on(t.paymentId, t.createdAt)],
);

// ---- Two-factor sign-in and the audit log (docs/decisions/019-two-factor-and-audit-log.md) ----

/**
 * A user's authenticator-app (TOTP) secret, AES-256-GCM encrypted with a key derived from the server secret.
 * `confirmedAt` is null while enrolment waits for the first code; `lastUsedStep` makes every code single use.
 */
export const userTotp = pgTable("user_totp", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretEncrypted: text("secret_encrypted").notNull(),
  confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});

/** Single-use recovery codes: only their SHA-256 (each has 50 random bits, checked under the login throttle). */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("recovery_codes_user_hash_key").on(t.userId, t.codeHash)],
);

/** WebAuthn credentials (passkeys): a second factor, or a sign-in on their own (they verify the user). */
export const passkeys = pgTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** base64url, as the browser reports it. */
    credentialId: text("credential_id").notNull().unique(),
    /** base64url COSE public key. */
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: text("transports").array().notNull(),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (t) => [index("passkeys_user_id_idx").on(t.userId)],
);

/**
 * Append-only record of security- and money-relevant actions. A trigger (migration 0012) refuses UPDATE and
 * DELETE; no foreign keys, so deleting a user or business never needs to touch it.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: text("id").primaryKey(),
    userId: text("user_id"),
    businessId: text("business_id"),
    action: text("action").notNull(),
    target: text("target"),
    ip: text("ip"),
    userAgent: text("user_agent"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("audit_events_business_idx").on(t.businessId, t.createdAt, t.id),
    index("audit_events_user_idx").on(t.userId, t.createdAt, t.id),
  ],
);

// ---- Team (docs/decisions/021-team.md) ----

export const MEMBER_ROLES = ["owner", "admin", "staff"] as const;

/**
 * Who works for a business, with which role. Exactly one owner per business (kept equal to `merchants.owner_id`),
 * and a user owns at most one business. Removing a member deletes the row: the next query sees it at once.
 */
export const businessMembers = pgTable(
  "business_members",
  {
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: MEMBER_ROLES }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.merchantId, t.userId] }),
    index("business_members_user_idx").on(t.userId),
    uniqueIndex("business_members_one_owner_key").on(t.merchantId).where(sql`role = 'owner'`),
    uniqueIndex("business_members_owns_one_key").on(t.userId).where(sql`role = 'owner'`),
  ],
);

/** Invitations by email: only the SHA-256 of the link's token; single use, 7 days. */
export const businessInvitations = pgTable(
  "business_invitations",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role", { enum: ["admin", "staff"] }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedBy: text("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("business_invitations_merchant_idx").on(t.merchantId, t.createdAt)],
);
