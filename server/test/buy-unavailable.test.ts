import { beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/app.ts";
import { createTestApp } from "./helpers.ts";
import { api } from "./payment-helpers.ts";

// No chain connection: buying is unavailable, and the buy page is told why as a code it says in its reader's
// words (issue 37), beside the English sentence.
let app: App;
beforeAll(async () => {
  app = await createTestApp();
});

describe("buying while it is unavailable", () => {
  it("the config names the reason; a quote, an order and a PayPal order are 503 with it in details", async () => {
    const config = (await api(app).get("/api/buy/config")).json();
    expect(config).toMatchObject({
      available: false,
      reason: "Buying CPXTB is unavailable: the server has no chain connection.",
      unavailableReason: "no_chain",
    });
    const quote = await api(app).post("/api/buy/quote", { usd: "25" });
    expect(quote.statusCode).toBe(503);
    expect(quote.json().error).toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      message: "Buying CPXTB is unavailable: the server has no chain connection.",
      details: { reason: "no_chain" },
    });
    const order = await api(app).post("/api/buy/orders", {
      method: "eth",
      buyerAddress: "0x1111111111111111111111111111111111111111",
      usd: "25",
    });
    expect(order.statusCode).toBe(503);
    expect(order.json().error.details).toEqual({ reason: "no_chain" });
  });
});
