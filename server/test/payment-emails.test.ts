import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { connectChain } from "../src/chain/service.ts";
import { rowsOf } from "../src/db/client.ts";
import { paymentEmails } from "../src/db/schema.ts";
import { dispatchEvents } from "../src/modules/notifications/dispatch.ts";
import { chainConfigFor, startTestChain, type TestChain } from "./chain-helpers.ts";
import { createTestApp } from "./helpers.ts";
import { startMailCapture } from "./mail-capture.ts";
import {
  api,
  chainTools,
  createMerchant,
  createPayment,
  type PaymentJson,
  paymentTestConfig,
  type TestMerchant,
} from "./payment-helpers.ts";

const CONFIRMATIONS = 1;

let chain: TestChain;
let app: App;
let tools: ReturnType<typeof chainTools>;
let mail: Awaited<ReturnType<typeof startMailCapture>>;

beforeAll(async () => {
  chain = await startTestChain();
  tools = chainTools(chain);
  mail = await startMailCapture();
  const connected = await connectChain(
    chainConfigFor(chain.url, chain.deployment, { confirmations: CONFIRMATIONS }),
  );
  app = await createTestApp(
    { ...paymentTestConfig(), smtpUrl: mail.url, explorerUrl: "https://explorer.example" },
    { chain: connected, notifications: { pollMs: 50, leaseMs: 300, emailRetryDelaysMs: [0, 100, 100] } },
  );
  await app.payments.indexer!.runOnce();
});
afterAll(async () => {
  await mail?.close();
  await chain?.stop();
});

async function complete(payment: PaymentJson, merchant: TestMerchant) {
  const payer = await tools.payer();
  await tools.pay(payer, merchant.wallet.address, payment.amountDueBase);
  await app.payments.indexer!.runOnce();
}

const forTo = (to: string) => mail.messages.filter((m) => m.to.includes(to));
const settle = () => new Promise((resolve) => setTimeout(resolve, 500));

describe("payment emails", () => {
  it("one notification to the merchant and one receipt to the payer per completed payment, values escaped", async () => {
    app.notifications.start();
    const merchant = await createMerchant(app, {
      contactEmail: "shop-1@example.com",
      name: "Tom & Jerry's <Shop>",
    });
    const payment = await createPayment(app, merchant.cookie, {
      orderId: "A<1>&2",
      description: '<script>alert("x")</script>',
      payerEmail: "payer-1@example.com",
    });
    await complete(payment, merchant);
    const note = await mail.waitFor("shop-1@example.com");
    const receipt = await mail.waitFor("payer-1@example.com");
    // Woken again and polled: still exactly one of each.
    app.notifications.wake();
    await settle();
    expect(forTo("shop-1@example.com")).toHaveLength(1);
    expect(forTo("payer-1@example.com")).toHaveLength(1);

    for (const m of [note, receipt]) {
      expect(m.raw).toMatch(/Content-Type: text\/plain/i);
      const html = m.raw.split(/Content-Type: text\/html/i)[1] ?? "";
      expect(html).toContain("<table");
      expect(html).not.toContain("<script>");
      expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
      expect(html).toContain("Tom &amp; Jerry&#39;s &lt;Shop&gt;");
      expect(m.raw).toContain(payment.reference);
    }
    expect(note.raw).toContain("A&lt;1&gt;&amp;2");
    // The subject names the merchant and the order.
    expect(note.raw).toMatch(/Subject: Payment received: Tom/);
    expect(note.raw).toMatch(/Status: Paid\b/);
    expect(note.raw).toMatch(/Paid at: .* UTC/);
    expect(note.raw).toMatch(/USD value: \$\d/);
    expect(note.raw).toContain("https://explorer.example/tx/0x");
    expect(note.raw).toContain("/payments");
    expect(note.raw).toMatch(/Rate: 1 CPXTB = \$/);
    expect(receipt.raw).toContain(`/pay/${payment.reference}`);
  });

  it("the business's notification is in its owner's language and zone; the payer's receipt in the pay pages' language, in UTC", async () => {
    const merchant = await createMerchant(app, {
      contactEmail: "shop-tz@example.com",
      name: "Corner Coffee",
    });
    // As the owner's browser reported it at sign-in (server/test/emails.test.ts covers the reporting).
    await app.database.db.execute(
      sql`update users set time_zone = 'Europe/Berlin', locale = 'de-DE'
          where id = (select owner_id from merchants where id = ${merchant.id})`,
    );
    // The language the business's pay pages open in (issue 37): its payers' receipts are written in it.
    expect(
      (await api(app, merchant.cookie).patch("/api/merchant", { payLanguage: "pt-BR" })).statusCode,
    ).toBe(200);
    const payment = await createPayment(app, merchant.cookie, {
      amount: "1234.50",
      orderId: "1042",
      payerEmail: "payer-tz@example.com",
    });
    await complete(payment, merchant);
    const note = decoded(await mail.waitFor("shop-tz@example.com"));
    const receipt = decoded(await mail.waitFor("payer-tz@example.com"));
    const detail = (await api(app, merchant.cookie).get(`/api/merchant/payments/${payment.id}`)).json();
    const completedAt = new Date(detail.completedAt);
    const berlin = new Intl.DateTimeFormat("de-DE", {
      dateStyle: "long",
      timeStyle: "short",
      timeZone: "Europe/Berlin",
    }).format(completedAt);
    expect(note).toMatch(/^Subject: Zahlung erhalten: Corner Coffee, Bestellung 1042\r?$/m);
    expect(note).toContain(`Bezahlt am: ${berlin} (Europe/Berlin)`);
    expect(note).toContain("Status: Bezahlt");
    expect(note).toContain("Betrag: 1.234,50\u00a0$");
    expect(note).toContain('<html lang="de" dir="ltr">');
    const utc = new Intl.DateTimeFormat("pt-BR", {
      dateStyle: "long",
      timeStyle: "short",
      timeZone: "UTC",
    }).format(completedAt);
    expect(receipt).toMatch(/^Subject: Seu pagamento para Corner Coffee, pedido 1042\r?$/m);
    expect(receipt).toContain("Obrigado. Recebemos o seu pagamento para Corner Coffee.");
    expect(receipt).toContain(`Pago em: ${utc} UTC`);
    expect(receipt).toContain("Referência: ");
    expect(receipt).toContain('<html lang="pt-BR" dir="ltr">');
  });

  it("a payer who gave their email on a link's page gets the receipt in the language they read it in", async () => {
    const merchant = await createMerchant(app, { contactEmail: "shop-link@example.com", name: "Kiosk" });
    // The business's pay pages open in Portuguese unless the payer's choice says otherwise.
    await api(app, merchant.cookie).patch("/api/merchant", { payLanguage: "pt-BR" });
    const created = await api(app, merchant.cookie).post("/api/merchant/links", {
      title: "Simit",
      pricing: "fixed",
      currency: "CPXTB",
      amount: "3",
    });
    expect(created.statusCode).toBe(201);
    const { slug } = created.json() as { slug: string };
    const payLink = async (headers: Record<string, string>, payerEmail: string) => {
      const res = await app.inject({
        method: "POST",
        url: `/api/links/public/${slug}/pay`,
        payload: { payerEmail },
        headers,
      });
      expect(res.statusCode).toBe(201);
      const { reference } = res.json() as { reference: string };
      const [row] = rowsOf<{ id: string; amount_due: string; payer_locale: string | null }>(
        await app.database.db.execute(
          sql`select id, amount_due::text, payer_locale from payments where reference = ${reference}`,
        ),
      );
      return row!;
    };
    // Chosen with the language menu (the cookie): Turkish, whatever the browser or the business's default.
    const chosen = await payLink(
      { cookie: "cpxtb_lang=tr", "accept-language": "de-DE,de;q=0.9" },
      "payer-tr@example.com",
    );
    // No choice: the business's default for its pay pages comes before the browser's (decision 038).
    const byDefault = await payLink({ "accept-language": "fr-FR,fr;q=0.9" }, "payer-pt@example.com");
    expect([chosen.payer_locale, byDefault.payer_locale]).toEqual(["tr", "pt-BR"]);

    const payer = await tools.payer();
    await tools.pay(payer, merchant.wallet.address, chosen.amount_due);
    await tools.pay(payer, merchant.wallet.address, byDefault.amount_due);
    await app.payments.indexer!.runOnce();
    const turkish = decoded(await mail.waitFor("payer-tr@example.com"));
    expect(turkish).toContain('<html lang="tr" dir="ltr">');
    expect(turkish).toMatch(/^Subject: .*Kiosk/m);
    const portuguese = decoded(await mail.waitFor("payer-pt@example.com"));
    expect(portuguese).toContain('<html lang="pt-BR" dir="ltr">');
    // The business's own notification stays in its owner's language.
    const note = decoded(await mail.waitFor("shop-link@example.com"));
    expect(note).toContain('<html lang="en" dir="ltr">');
  });

  it("a payer's language given with the request writes their receipt, before the business's default", async () => {
    const merchant = await createMerchant(app, { contactEmail: "shop-lang@example.com", name: "Bakery" });
    await api(app, merchant.cookie).patch("/api/merchant", { payLanguage: "pt-BR" });
    // An unknown language is refused in the error shape, and nothing is created.
    const refused = await api(app, merchant.cookie).post("/api/merchant/payments", {
      currency: "USD",
      amount: "10.00",
      payerEmail: "payer-xx@example.com",
      payerLanguage: "klingon",
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: { code: "VALIDATION_ERROR" } });
    expect(refused.json().error.message).toMatch(/payerLanguage/);
    const payment = await createPayment(app, merchant.cookie, {
      payerEmail: "payer-fr@example.com",
      payerLanguage: "fr",
    });
    expect(payment.payerLanguage).toBe("fr");
    await complete(payment, merchant);
    const receipt = decoded(await mail.waitFor("payer-fr@example.com"));
    expect(receipt).toContain('<html lang="fr" dir="ltr">');
    expect(receipt).toMatch(/^Subject: .*Bakery/m);
    expect(forTo("payer-xx@example.com")).toHaveLength(0);
  });

  it("no payer receipt without payerEmail; nothing for a payment that does not complete", async () => {
    const merchant = await createMerchant(app, { contactEmail: "shop-2@example.com" });
    const paid = await createPayment(app, merchant.cookie);
    await createPayment(app, merchant.cookie, { payerEmail: "never@example.com" });
    await complete(paid, merchant);
    await mail.waitFor("shop-2@example.com");
    await settle();
    expect(forTo("shop-2@example.com")).toHaveLength(1);
    expect(forTo("never@example.com")).toHaveLength(0);
    const rows = await app.database.db
      .select({ kind: paymentEmails.kind })
      .from(paymentEmails)
      .where(eq(paymentEmails.paymentId, paid.id));
    expect(rows).toEqual([{ kind: "merchant" }]);
  });

  it("none when the owner turned payment emails off (neither notification nor receipt)", async () => {
    const merchant = await createMerchant(app, { contactEmail: "shop-3@example.com" });
    const off = await api(app, merchant.cookie).patch("/api/user/preferences", {
      notifyPaymentEmails: false,
    });
    expect(off.statusCode).toBe(200);
    const payment = await createPayment(app, merchant.cookie, { payerEmail: "payer-3@example.com" });
    await complete(payment, merchant);
    // The completion event was dispatched (so the runner did look at it) and stored no email.
    await settle();
    const events = await app.database.db.execute(
      sql`select type, dispatched_at from payment_events where payment_id = ${payment.id} and type = 'payment.completed'`,
    );
    expect(rowsOf<{ dispatched_at: unknown }>(events)[0]?.dispatched_at).toBeTruthy();
    const rows = await app.database.db
      .select()
      .from(paymentEmails)
      .where(eq(paymentEmails.paymentId, payment.id));
    expect(rows).toEqual([]);
    expect(forTo("shop-3@example.com")).toHaveLength(0);
    expect(forTo("payer-3@example.com")).toHaveLength(0);
  });

  it("a send claimed by a runner that died is sent once by another, after the lease", async () => {
    await app.notifications.stop();
    const merchant = await createMerchant(app, { contactEmail: "shop-4@example.com" });
    const payment = await createPayment(app, merchant.cookie);
    await complete(payment, merchant);
    await dispatchEvents(app.database.db, { limit: 100, baseUrl: "http://localhost" });
    // A runner claimed it (the attempt counted, leased) and died before sending.
    const [leased] = await app.database.db
      .update(paymentEmails)
      .set({ attempts: 1, lockedUntil: sql`now() + interval '1500 milliseconds'` })
      .where(eq(paymentEmails.paymentId, payment.id))
      .returning({ lockedUntil: paymentEmails.lockedUntil });
    app.notifications.start();
    await mail.waitFor("shop-4@example.com");
    await settle();
    expect(forTo("shop-4@example.com")).toHaveLength(1);
    const [row] = await app.database.db
      .select()
      .from(paymentEmails)
      .where(eq(paymentEmails.paymentId, payment.id));
    expect(row).toMatchObject({ status: "sent", attempts: 2 });
    // Not before the dead runner's lease ended, by the database's clock (however long each step took here).
    expect(row!.sentAt!.getTime()).toBeGreaterThanOrEqual(leased!.lockedUntil!.getTime());
  });
});

/** A captured email's text with its quoted-printable bytes decoded (non-ASCII letters arrive as =C3=A4). */
function decoded(mail: { raw: string }): string {
  return mail.raw.replace(/(?:=[0-9A-F]{2})+/g, (run) =>
    Buffer.from(
      run
        .split("=")
        .slice(1)
        .map((hex) => Number.parseInt(hex, 16)),
    ).toString("utf8"),
  );
}
