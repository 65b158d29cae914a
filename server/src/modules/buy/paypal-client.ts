import { AppError } from "../../errors.ts";

/** PayPal REST (Orders v2) with an OAuth client-credentials token; the secret never leaves this file. */
export type PaypalSettings = { clientId: string; clientSecret: string; apiBase: string };

export type PaypalAmount = { currency_code?: string; value?: string };
export type PaypalCapture = { id?: string; status?: string; amount?: PaypalAmount };
export type PaypalOrder = {
  id?: string;
  status?: string;
  links?: { href?: string; rel?: string }[];
  purchase_units?: {
    reference_id?: string;
    custom_id?: string;
    payments?: { captures?: PaypalCapture[] };
  }[];
};

/** A PayPal answer other than 2xx: its HTTP status and PayPal's issue name (e.g. ORDER_ALREADY_CAPTURED). */
export class PaypalError extends Error {
  constructor(
    readonly status: number,
    readonly issue: string | null,
  ) {
    super(`PayPal answered ${status}${issue ? ` (${issue})` : ""}`);
    this.name = "PaypalError";
  }
}

const TIMEOUT_MS = 15_000;

export class PaypalClient {
  private token: { value: string; expiresAt: number } | null = null;

  constructor(private readonly settings: PaypalSettings) {}

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return this.token.value;
    const basic = Buffer.from(`${this.settings.clientId}:${this.settings.clientSecret}`).toString("base64");
    const response = await this.fetch("/v1/oauth2/token", {
      method: "POST",
      headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=client_credentials",
    });
    const body = (await response.json()) as { access_token?: unknown; expires_in?: unknown };
    if (typeof body.access_token !== "string") throw new PaypalError(response.status, "NO_ACCESS_TOKEN");
    const seconds = typeof body.expires_in === "number" ? body.expires_in : 300;
    this.token = { value: body.access_token, expiresAt: Date.now() + Math.max(0, seconds - 60) * 1000 };
    return this.token.value;
  }

  private async fetch(path: string, init: RequestInit): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${this.settings.apiBase}${path}`, {
        ...init,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch {
      throw new AppError("BAD_GATEWAY", "PayPal did not answer. Try again in a moment.", {
        reason: "paypal_no_answer",
      });
    }
    if (!response.ok) {
      const body = (await response.json().catch(() => null)) as {
        name?: unknown;
        details?: { issue?: unknown }[];
      } | null;
      const issue = body?.details?.[0]?.issue ?? body?.name;
      if (response.status === 401) this.token = null;
      throw new PaypalError(response.status, typeof issue === "string" ? issue : null);
    }
    return response;
  }

  private async call(method: "GET" | "POST", path: string, body?: unknown, requestId?: string) {
    const token = await this.accessToken();
    const response = await this.fetch(path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        // PayPal's idempotency key: a retried create or capture answers like the first one.
        ...(requestId ? { "paypal-request-id": requestId } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await response.json()) as PaypalOrder;
  }

  createOrder(input: {
    referenceId: string;
    usd: string;
    description: string;
    returnUrl: string;
    cancelUrl: string;
  }): Promise<PaypalOrder> {
    return this.call(
      "POST",
      "/v2/checkout/orders",
      {
        intent: "CAPTURE",
        purchase_units: [
          {
            reference_id: input.referenceId,
            custom_id: input.referenceId,
            description: input.description,
            amount: { currency_code: "USD", value: input.usd },
          },
        ],
        payment_source: {
          paypal: {
            experience_context: {
              brand_name: "CPXTB Pay",
              shipping_preference: "NO_SHIPPING",
              user_action: "PAY_NOW",
              return_url: input.returnUrl,
              cancel_url: input.cancelUrl,
            },
          },
        },
      },
      `create-${input.referenceId}`,
    );
  }

  captureOrder(paypalOrderId: string, referenceId: string): Promise<PaypalOrder> {
    return this.call(
      "POST",
      `/v2/checkout/orders/${encodeURIComponent(paypalOrderId)}/capture`,
      {},
      `capture-${referenceId}`,
    );
  }

  getOrder(paypalOrderId: string): Promise<PaypalOrder> {
    return this.call("GET", `/v2/checkout/orders/${encodeURIComponent(paypalOrderId)}`);
  }
}

/** Where the buyer approves: `payer-action` (payment_source requests) or `approve` (older requests). */
export function approveLink(order: PaypalOrder): string | null {
  const link =
    order.links?.find((l) => l.rel === "payer-action") ?? order.links?.find((l) => l.rel === "approve");
  return link?.href ?? null;
}
