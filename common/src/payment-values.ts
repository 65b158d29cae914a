// The payment contract's plain values, apart from its zod schemas (payments.ts re-exports them): a page that only
// shows payments (the dashboard, the pay page) imports these without loading and building the schemas.

export const PAYMENT_STATUSES = [
  "pending",
  "processing",
  "partial",
  "completed",
  "expired",
  "paid_late",
  "invalid",
  "cancelled",
] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A payment's public reference (what /pay/{reference} and a QR code carry): 22-64 URL-safe characters. */
export const PAYMENT_REFERENCE_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

/** Hours after expiry during which a payment is still watched (and its amount kept reserved). */
export const MONITORING_WINDOW_HOURS = 24;
export const EXPIRY_MINUTES = { default: 15, min: 1, max: 7 * 24 * 60 } as const;

/** The query key of a QR code's SVG path (common/qr.ts), seeded by the server-rendered pay page (decision 017). */
export const qrQueryKey = (text: string) => [`qr:${text}`] as const;

/** Key of the server's clock (epoch ms) in a server-rendered page's data: its countdown starts from it. */
export const SERVER_NOW_KEY = "server-now";
