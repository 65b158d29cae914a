// Webhooks from one instance to a local receiver (a real HTTP server in this process):
// 1. throughput: DELIVERIES deliveries stored at once (as the dispatcher stores them), then the time until the
//    receiver has them all;
// 2. latency: time from the confirming block being mined to the `payment.completed` delivery arriving at the
//    receiver (the indexer's normal loop, the runner woken by the commit), p50/p95 over SAMPLES payments.
// Run: npx tsx bench/webhooks.ts   (SAMPLES=20, DELIVERIES=2000, CONFIRMATIONS=1)
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { webhookDeliveries, webhookEndpoints } from "../server/src/db/schema.ts";
import { createId } from "../server/src/lib/ids.ts";
import { percentile, setUpPaymentsBench } from "./payments-setup.ts";

const SAMPLES = Number(process.env.SAMPLES ?? 20);
const DELIVERIES = Number(process.env.DELIVERIES ?? 2000);

const arrivals = new Map<string, number>();
let received = 0;
let onReceived: (() => void) | null = null;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const at = performance.now();
    received++;
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
      type: string;
      data: { reference?: string };
    };
    if (body.type === "payment.completed" && body.data.reference) arrivals.set(body.data.reference, at);
    res.writeHead(200).end("ok");
    onReceived?.();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

const bench = await setUpPaymentsBench({
  configure: (config) => {
    config.webhooks.allowPrivate = true;
  },
});
const { app, test } = bench;
try {
  app.payments.start();
  app.notifications.start();
  while (!app.payments.health()?.lastSuccessAt) await new Promise((r) => setTimeout(r, 10));
  const create = (url: string, events: string[]) =>
    app.inject({
      method: "POST",
      url: "/api/merchant/webhooks",
      headers: { cookie: bench.cookie },
      payload: { url, events },
    });

  // 1. Throughput.
  const bulk = (await create(`${receiverUrl}/bulk`, ["payment.invalid"])).json() as { id: string };
  const [endpoint] = await app.database.db.select().from(webhookEndpoints);
  const now = new Date();
  const rows = Array.from({ length: DELIVERIES }, (_, i) => ({
    id: createId("whd"),
    messageId: createId("msg"),
    endpointId: bulk.id,
    merchantId: endpoint!.merchantId,
    eventId: null,
    eventType: "webhook.test",
    body: JSON.stringify({ type: "webhook.test", timestamp: now.toISOString(), data: { i } }),
    nextAttemptAt: now,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await app.database.db.insert(webhookDeliveries).values(rows.slice(i, i + 500));
  const all = new Promise<void>((resolve) => {
    onReceived = () => {
      if (received >= DELIVERIES) resolve();
    };
  });
  const started = performance.now();
  app.notifications.wake();
  await all;
  const seconds = (performance.now() - started) / 1000;
  onReceived = null;
  await app.inject({
    method: "PATCH",
    url: `/api/merchant/webhooks/${bulk.id}`,
    headers: { cookie: bench.cookie },
    payload: { enabled: false },
  });

  // 2. Latency from the confirming block.
  await create(`${receiverUrl}/completed`, ["payment.completed"]);
  const pollMs = bench.config.payments.indexerPollMs;
  await test.setAutomine(false);
  const latencies: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const payment = (await bench.create(555)).json() as { reference: string; amountDueBase: string };
    await bench.pay(payment.amountDueBase);
    if (bench.confirmations > 1) await test.mine({ blocks: bench.confirmations - 1 });
    await new Promise((r) => setTimeout(r, Math.random() * pollMs));
    await test.mine({ blocks: 1 });
    const mined = performance.now();
    while (!arrivals.has(payment.reference)) await new Promise((r) => setTimeout(r, 2));
    latencies.push(arrivals.get(payment.reference)! - mined);
  }
  await test.setAutomine(true);
  latencies.sort((a, b) => a - b);
  console.log(
    `webhook throughput (one instance -> local receiver, ${DELIVERIES} deliveries, ${bench.database.driver}): ` +
      `${Math.round(DELIVERIES / seconds)} deliveries/s (${seconds.toFixed(2)} s)`,
  );
  console.log(
    `webhook latency (confirming block mined -> 'payment.completed' delivery at the receiver, ${SAMPLES} payments, ` +
      `${bench.confirmations} confirmation(s), indexer poll ${pollMs} ms, ${bench.database.driver}): ` +
      `p50 ${percentile(latencies, 50)} ms, p95 ${percentile(latencies, 95)} ms, max ${percentile(latencies, 100)} ms`,
  );
} finally {
  await bench.close();
  receiver.close();
}
