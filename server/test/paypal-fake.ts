import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for PayPal's Orders v2 at its HTTP boundary: the OAuth client-credentials token, create,
 * capture and read. Tests approve an order (what the buyer does at PayPal) and can make the next capture report
 * another amount, currency or capture id.
 */
type FakeOrder = {
  id: string;
  referenceId: string;
  amount: { currency_code: string; value: string };
  approved: boolean;
  capture: { id: string; status: string; amount: { currency_code: string; value: string } } | null;
};

export type CaptureTweak = Partial<{ value: string; currency: string; captureId: string; status: string }>;

export async function startFakePaypal(credentials: { clientId: string; clientSecret: string }) {
  const orders = new Map<string, FakeOrder>();
  const tweaks = new Map<string, CaptureTweak>();
  const tokens = new Set<string>();
  const calls: { method: string; path: string; requestId: string | null }[] = [];
  const basic = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString("base64")}`;

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const issue = (res: ServerResponse, status: number, name: string) =>
    send(res, status, { name: "UNPROCESSABLE_ENTITY", details: [{ issue: name }] });
  const view = (o: FakeOrder) => ({
    id: o.id,
    status: o.capture ? "COMPLETED" : o.approved ? "APPROVED" : "PAYER_ACTION_REQUIRED",
    purchase_units: [
      {
        reference_id: o.referenceId,
        custom_id: o.referenceId,
        amount: o.amount,
        ...(o.capture ? { payments: { captures: [o.capture] } } : {}),
      },
    ],
    links: [{ rel: "payer-action", href: `https://paypal.example/checkoutnow?token=${o.id}` }],
  });
  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const body = await readBody(req);
    calls.push({
      method: req.method ?? "",
      path: url.pathname,
      requestId: (req.headers["paypal-request-id"] as string | undefined) ?? null,
    });
    if (req.method === "POST" && url.pathname === "/v1/oauth2/token") {
      if (req.headers.authorization !== basic || body !== "grant_type=client_credentials") {
        return send(res, 401, { error: "invalid_client" });
      }
      const token = `A21${randomBytes(12).toString("hex")}`;
      tokens.add(token);
      return send(res, 200, { access_token: token, token_type: "Bearer", expires_in: 32_400 });
    }
    const bearer = req.headers.authorization?.replace(/^Bearer /, "");
    if (!bearer || !tokens.has(bearer)) return send(res, 401, { error: "invalid_token" });

    if (req.method === "POST" && url.pathname === "/v2/checkout/orders") {
      const input = JSON.parse(body) as {
        intent: string;
        purchase_units: { reference_id: string; amount: { currency_code: string; value: string } }[];
      };
      const unit = input.purchase_units[0]!;
      const order: FakeOrder = {
        id: randomBytes(8).toString("hex").toUpperCase(),
        referenceId: unit.reference_id,
        amount: unit.amount,
        approved: false,
        capture: null,
      };
      orders.set(order.id, order);
      return send(res, 201, view(order));
    }
    const m = url.pathname.match(/^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/);
    const order = m ? orders.get(decodeURIComponent(m[1]!)) : undefined;
    if (!m || !order) return send(res, 404, { name: "RESOURCE_NOT_FOUND" });
    if (req.method === "GET" && !m[2]) return send(res, 200, view(order));
    if (req.method === "POST" && m[2]) {
      if (order.capture) return issue(res, 422, "ORDER_ALREADY_CAPTURED");
      if (!order.approved) return issue(res, 422, "ORDER_NOT_APPROVED");
      const tweak = tweaks.get(order.id) ?? {};
      order.capture = {
        id: tweak.captureId ?? randomBytes(8).toString("hex").toUpperCase(),
        status: tweak.status ?? "COMPLETED",
        amount: {
          currency_code: tweak.currency ?? order.amount.currency_code,
          value: tweak.value ?? order.amount.value,
        },
      };
      return send(res, 201, view(order));
    }
    return send(res, 405, { name: "METHOD_NOT_ALLOWED" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    orders,
    /** The buyer approves at PayPal. */
    approve(id: string) {
      const order = orders.get(id);
      if (!order) throw new Error(`no fake PayPal order ${id}`);
      order.approved = true;
    },
    /** The next capture of this order reports these values instead of the order's. */
    tweakCapture(id: string, tweak: CaptureTweak) {
      tweaks.set(id, tweak);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
