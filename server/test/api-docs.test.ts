import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { apiErrorBody } from "@common/errors.ts";
import { linkResponse, listLinksResponse } from "@common/links.ts";
import { listPaymentsResponse, paymentDetailResponse, paymentResponse } from "@common/payments.ts";
import { WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT } from "@common/webhooks.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { errorStatus } from "../src/errors.ts";
import { ERROR_EXAMPLES, exampleFor, exampleWebhookBody } from "../src/modules/api-docs/examples.ts";
import { generateSecret, signatureHeader } from "../src/modules/webhooks/signing.ts";
import { createTestApp } from "./helpers.ts";

let app: App;
let page: string;
const dir = mkdtempSync(join(tmpdir(), "cpxtb-docs-"));

beforeAll(async () => {
  app = await createTestApp({ apiKeyKind: "live" });
  const res = await app.inject({ url: "/api/docs" });
  expect(res.statusCode).toBe(200);
  page = res.body;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const decodeHtml = (html: string) =>
  html
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

/** The text of the page's code block `id`, as a reader copies it. */
function snippet(id: string): string {
  const match = page.match(new RegExp(`<code id="${id}">([\\s\\S]*?)</code>`));
  if (!match) throw new Error(`no code block #${id} on /api/docs`);
  return decodeHtml(match[1]!);
}

/** A delivery as the server signs it (webhooks/signing.ts), the body as notifications/dispatch.ts makes it. */
function delivery(secrets: string[], at = Math.floor(Date.now() / 1000)) {
  const body = JSON.stringify(exampleWebhookBody("https://pay.example", "payment.completed"));
  const headers = {
    "webhook-id": "msg_01kaw3m8x2q9r4t6v8y0z2b4d6",
    "webhook-timestamp": String(at),
    "webhook-signature": signatureHeader(secrets, "msg_01kaw3m8x2q9r4t6v8y0z2b4d6", at, body),
  };
  return { headers, body };
}

describe("/api/docs examples", () => {
  it("shows a JSON example of every response, each one what its schema answers", async () => {
    const doc = (await app.inject({ url: "/api/openapi.json" })).json() as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content: Record<string, { example?: unknown }> }> }>
      >;
    };
    let count = 0;
    for (const [path, methods] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(methods))
        for (const [status, response] of Object.entries(op.responses)) {
          const example = response.content["application/json"]!.example;
          expect(example, `${method} ${path} ${status}`).toBeDefined();
          count++;
          if (Number(status) >= 400) {
            const body = apiErrorBody.parse(example);
            expect(errorStatus[body.error.code as keyof typeof errorStatus]).toBe(Number(status));
          }
        }
    expect(count).toBeGreaterThan(30);
    // Each success example is exactly what its schema serialises: every field, none extra.
    const server = "https://pay.example";
    for (const schema of [
      paymentResponse,
      paymentDetailResponse,
      listPaymentsResponse,
      linkResponse,
      listLinksResponse,
    ]) {
      const example = exampleFor(schema, "200", server);
      expect(schema.parse(example)).toEqual(example);
    }
    for (const status of Object.keys(ERROR_EXAMPLES))
      expect(exampleFor(apiErrorBody, status, server)).not.toBeNull();
    // On the page, below each operation.
    expect(page).toContain("&quot;amountDue&quot;: &quot;1000.000449&quot;");
    expect(page).toContain("{&quot;error&quot;:{&quot;code&quot;:&quot;UNAUTHENTICATED&quot;");
  });

  it("links back to the app and says which keys this deployment takes", () => {
    expect(page).toMatch(/<a href="\/">← CPXTB Pay<\/a>/);
    expect(page).toContain('<a href="/developers">API keys</a>');
    expect(page).toContain("Authorization: Bearer cpx_live_...");
  });

  it("has a Webhooks section with every event and its payload", () => {
    expect(page).toContain('<h2 id="webhooks">Webhooks</h2>');
    for (const event of [...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT] as const) {
      expect(page).toContain(`<details id="event-${event}">`);
      const body = exampleWebhookBody("https://pay.example", event);
      expect(body.type).toBe(event);
      if (event !== WEBHOOK_TEST_EVENT) expect(paymentResponse.parse(body.data)).toEqual(body.data);
    }
    const refunded = exampleWebhookBody("https://pay.example", "payment.refunded").data as {
      refundStatus: string;
    };
    expect(refunded.refundStatus).toBe("partially_refunded");
  });
});

describe("/api/docs signature verification examples", () => {
  it("the Node example accepts the server's signature and refuses a changed body, a wrong secret and an old delivery", async () => {
    const file = join(dir, "verify.mjs");
    writeFileSync(file, snippet("verify-node"));
    const { verifyWebhook } = (await import(pathToFileURL(file).href)) as {
      verifyWebhook: (secret: string, headers: Record<string, string>, body: string | Buffer) => boolean;
    };
    const secret = generateSecret();
    const { headers, body } = delivery([secret]);
    expect(verifyWebhook(secret, headers, body)).toBe(true);
    expect(verifyWebhook(secret, headers, Buffer.from(body))).toBe(true);
    expect(verifyWebhook(secret, headers, body.replace("1000.000449", "1.000449"))).toBe(false);
    expect(verifyWebhook(generateSecret(), headers, body)).toBe(false);
    const old = delivery([secret], Math.floor(Date.now() / 1000) - 600);
    expect(verifyWebhook(secret, old.headers, old.body)).toBe(false);
    // During a rotation two secrets sign: either one verifies.
    const rotated = delivery([generateSecret(), secret]);
    expect(rotated.headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(verifyWebhook(secret, rotated.headers, rotated.body)).toBe(true);
  });

  const python = spawnSync("python3", ["--version"]).status === 0;
  it.skipIf(!python)("the Python example accepts the server's signature and refuses the rest", () => {
    const secret = generateSecret();
    const good = delivery([secret]);
    const cases = [
      { secret, ...good },
      { secret, headers: good.headers, body: good.body.replace("1000.000449", "1.000449") },
      { secret: generateSecret(), ...good },
      { secret, ...delivery([secret], Math.floor(Date.now() / 1000) - 600) },
      { secret, ...delivery([generateSecret(), secret]) },
      { secret, headers: { ...good.headers, "webhook-signature": "v1,not-base64!" }, body: good.body },
    ];
    const file = join(dir, "verify.py");
    writeFileSync(
      file,
      `${snippet("verify-python")}

import json, sys
for case in json.load(sys.stdin):
    print(verify_webhook(case["secret"], case["headers"], case["body"].encode()))
`,
    );
    const run = spawnSync("python3", [file], { input: JSON.stringify(cases), encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim().split("\n")).toEqual(["True", "False", "False", "False", "True", "False"]);
  });
});
