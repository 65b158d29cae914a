// Detection latency as the payer sees it: the pay page's live subscription over /ws (the messages the page sends),
// a payment of the exact amount on anvil, and the time from the confirming block being mined to the
// `completed` update arriving on the socket. The indexer runs its normal loop; blocks are mined on demand at a
// random moment of its polling cycle.
// Run: npx tsx bench/detection.ts   (SAMPLES=20, CONFIRMATIONS=1, INDEXER_POLL_MS to override the default)
import WebSocket from "ws";
import { percentile, setUpPaymentsBench } from "./payments-setup.ts";

const SAMPLES = Number(process.env.SAMPLES ?? 20);

type Message = { type: string; event?: string; payment?: { reference: string; status: string } };

class PageSocket {
  private waiters: { match: (m: Message) => boolean; resolve: (at: number) => void }[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on("message", (data) => {
      const at = performance.now();
      const message = JSON.parse(String(data)) as Message;
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(message)) return true;
        w.resolve(at);
        return false;
      });
    });
  }
  static open(url: string) {
    return new Promise<PageSocket>((resolve, reject) => {
      const ws = new WebSocket(url);
      ws.once("open", () => resolve(new PageSocket(ws)));
      ws.once("error", reject);
    });
  }
  /** Resolves with the arrival time of the first later message for `reference` in `status`. */
  status(reference: string, status: string, timeoutMs = 30_000) {
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${status} for ${reference}`)), timeoutMs);
      this.waiters.push({
        match: (m) =>
          m.type === "paymentUpdate" && m.payment?.reference === reference && m.payment.status === status,
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      });
    });
  }
  send(message: object) {
    this.ws.send(JSON.stringify(message));
  }
}

const bench = await setUpPaymentsBench();
const { app, test } = bench;
let page: PageSocket | null = null;
try {
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address() as { port: number };
  page = await PageSocket.open(`ws://127.0.0.1:${address.port}/ws`);
  app.payments.start();
  while (!app.payments.health()?.lastSuccessAt) await new Promise((r) => setTimeout(r, 10));
  const pollMs = bench.config.payments.indexerPollMs;

  await test.setAutomine(false);
  const latencies: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const payment = (await bench.create(777)).json() as { reference: string; amountDueBase: string };
    const snapshot = page.status(payment.reference, "pending");
    page.send({ type: "subscribePayment", reference: payment.reference });
    await snapshot;
    await bench.pay(payment.amountDueBase);
    if (bench.confirmations > 1) {
      const processing = page.status(payment.reference, "processing");
      await test.mine({ blocks: 1 });
      await processing;
      if (bench.confirmations > 2) await test.mine({ blocks: bench.confirmations - 2 });
    }
    // Anywhere in the indexer's polling cycle, like a real block.
    await new Promise((r) => setTimeout(r, Math.random() * pollMs));
    const completed = page.status(payment.reference, "completed");
    await test.mine({ blocks: 1 });
    const mined = performance.now();
    latencies.push((await completed) - mined);
    page.send({ type: "unsubscribePayment", reference: payment.reference });
  }
  await test.setAutomine(true);
  latencies.sort((a, b) => a - b);
  console.log(
    `detection latency (confirming block mined -> 'completed' on the pay page's /ws, ${SAMPLES} payments, ` +
      `${bench.confirmations} confirmation(s), indexer poll ${pollMs} ms, ${bench.database.driver}): ` +
      `p50 ${percentile(latencies, 50)} ms, p95 ${percentile(latencies, 95)} ms, max ${percentile(latencies, 100)} ms`,
  );
} finally {
  page?.ws.close();
  await bench.close();
}
