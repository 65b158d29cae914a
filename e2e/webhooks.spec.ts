import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./fixtures";
import { createMerchant } from "./support/payments";

type Received = { id: string; timestamp: string; signature: string; body: string };

/** The merchant's server: a real HTTP listener on loopback (the e2e server runs with WEBHOOKS_ALLOW_PRIVATE). */
async function startReceiver() {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        id: String(req.headers["webhook-id"]),
        timestamp: String(req.headers["webhook-timestamp"]),
        signature: String(req.headers["webhook-signature"]),
        body: Buffer.concat(chunks).toString("utf8"),
      });
      res.writeHead(200, { "content-type": "text/plain" }).end("thanks");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/cpxtb-hook`, received, close: () => server.close() };
}

/** Standard Webhooks, computed here: base64 HMAC-SHA256 of "id.timestamp.body" with the decoded secret. */
function expectedSignature(secret: string, r: Received) {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return `v1,${createHmac("sha256", key).update(`${r.id}.${r.timestamp}.${r.body}`).digest("base64")}`;
}

for (const theme of ["dark", "light"] as const) {
  test(`add an endpoint, see its secret once, send a test event and see it delivered (${theme})`, async ({
    page,
  }) => {
    const receiver = await startReceiver();
    try {
      await page.addInitScript((t) => window.localStorage.setItem("cpxtb-pay-theme", t), theme);
      await page.setViewportSize({ width: 390, height: 844 });
      await createMerchant(page.request);
      await page.goto("/webhooks");
      await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible();
      await expect(page.getByText("No endpoints yet")).toBeVisible();

      // The e2e server is a development install: the page says how to test locally.
      await expect(page.getByTestId("webhooks-test-locally")).toContainText("http://127.0.0.1:4000/");
      await page.getByLabel("Endpoint URL").fill(receiver.url);
      // A new endpoint subscribes to every payment event (the merchant may untick some).
      for (const name of [/Payment created/, /Payment completed/, /Paid after expiry/])
        await expect(page.getByRole("checkbox", { name })).toBeChecked();
      await page.getByRole("button", { name: "Add endpoint" }).click();

      const secretBox = page.getByTestId("webhook-secret");
      await expect(secretBox).toContainText("shown only this once");
      const secret = (await secretBox.locator("code").textContent())!.trim();
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
      const endpoint = page.getByTestId("webhook-endpoint");
      await expect(endpoint).toContainText(receiver.url);
      await expect(endpoint).toContainText("payment.created");
      await expect(endpoint).toContainText("payment.completed");
      await expect(endpoint).toContainText("payment.refunded");
      // A receiver on this machine: accepted, and labelled as such. "Enabled" is said once (the switch).
      await expect(endpoint.getByTestId("development-only")).toHaveText("Development only");
      await expect(endpoint.getByText("Enabled", { exact: true })).toHaveCount(1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      const dir = process.env.SCREENSHOTS_DIR;
      if (dir) await page.screenshot({ path: `${dir}/webhooks-secret-390-${theme}.png`, fullPage: true });

      await page.getByRole("button", { name: "I have stored it" }).click();
      await expect(secretBox).toHaveCount(0);
      await page.reload();
      await expect(page.getByTestId("webhook-endpoint")).toBeVisible();
      // Never again: not on the page, not in any answer the page reads.
      expect(await page.content()).not.toContain(secret.slice(6));
      const list = await page.request.get("/api/merchant/webhooks");
      expect(await list.text()).not.toContain(secret.slice(6));

      await page.getByRole("button", { name: "Send test event" }).click();
      const delivery = page.getByTestId("webhook-delivery").first();
      await expect(delivery).toContainText("Delivered");
      await expect(delivery).toContainText("webhook.test");
      await expect(delivery).toContainText("HTTP 200");

      expect(receiver.received).toHaveLength(1);
      const [got] = receiver.received;
      expect(got!.id).toMatch(/^msg_/);
      expect(got!.signature).toBe(expectedSignature(secret, got!));
      expect(JSON.parse(got!.body)).toMatchObject({ type: "webhook.test" });
      await expect(delivery).toContainText(got!.id);
      // The log shows what was sent as well as the answer.
      await delivery.getByText("Payload sent").click();
      await expect(delivery.getByTestId("delivery-payload")).toContainText('"type": "webhook.test"');

      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      if (dir) {
        await page.screenshot({ path: `${dir}/webhooks-390-${theme}.png`, fullPage: true });
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.screenshot({ path: `${dir}/webhooks-1280-${theme}.png`, fullPage: true });
      }
    } finally {
      receiver.close();
    }
  });
}
