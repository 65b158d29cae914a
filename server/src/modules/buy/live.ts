import { subscribeBuyOrderMessage } from "@common/buy.ts";
import type { FastifyBaseLogger } from "fastify";
import type { SharedState } from "../../lib/shared-state/shared-state.ts";
import type { RealtimeConnection, RealtimeHub } from "../realtime/hub.ts";
import { buyerOfConnection, owns } from "./ownership.ts";
import { type BuyDeps, findOrder, toOrderView } from "./service.ts";

const CHANNEL = "buy-orders";
const MAX_ORDERS_PER_CONNECTION = 10;

/**
 * Order pages follow their order over /ws: a snapshot on subscribe, then one `buyOrderUpdate` per change,
 * published through shared state so the instance that changed the order need not hold the page's socket.
 */
export class BuyLive {
  private readonly byOrder = new Map<string, Set<RealtimeConnection>>();
  private unsubscribe: (() => Promise<void>) | null = null;

  constructor(
    private readonly deps: () => BuyDeps,
    private readonly state: SharedState,
    private readonly hub: RealtimeHub,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start() {
    this.unsubscribe = await this.state.subscribe(CHANNEL, (id) => {
      this.push(id).catch((error) => this.log.warn({ err: error }, "buy order update failed"));
    });
    this.hub.handle("subscribeBuyOrder", subscribeBuyOrderMessage, (m, c) => this.subscribe(m.id, c));
  }

  notify(id: string) {
    this.state
      .publish(CHANNEL, id)
      .catch((error) => this.log.warn({ err: error }, "buy order publish failed"));
  }

  private async subscribe(id: string, connection: RealtimeConnection) {
    const mine = (connection.data.get("buy:orders") as Set<string> | undefined) ?? new Set<string>();
    if (!mine.has(id) && mine.size >= MAX_ORDERS_PER_CONNECTION) {
      connection.send({
        type: "buyOrderError",
        id,
        code: "RATE_LIMITED",
        message: "Too many subscriptions.",
      });
      return;
    }
    const found = await findOrder(this.deps().db, id);
    // Only its owner follows an order: the account or browser that created it (decision 013), from the
    // cookies of the upgrade request; anyone else is told there is no such order.
    const buyer = await buyerOfConnection(this.deps().db, connection.cookies, new Date());
    if (!found || !owns(buyer, found.order)) {
      connection.send({ type: "buyOrderError", id, code: "NOT_FOUND", message: "No such order." });
      return;
    }
    mine.add(id);
    connection.data.set("buy:orders", mine);
    let set = this.byOrder.get(id);
    if (!set) {
      set = new Set();
      this.byOrder.set(id, set);
    }
    if (!set.has(connection)) {
      set.add(connection);
      connection.onClose(() => {
        set.delete(connection);
        if (set.size === 0 && this.byOrder.get(id) === set) this.byOrder.delete(id);
      });
    }
    connection.send({
      type: "buyOrderUpdate",
      order: toOrderView(this.deps().config, found.order, found.send, this.deps().now()),
    });
  }

  private async push(id: string) {
    const set = this.byOrder.get(id);
    if (!set || set.size === 0) return;
    const found = await findOrder(this.deps().db, id);
    if (!found) return;
    const order = toOrderView(this.deps().config, found.order, found.send, this.deps().now());
    for (const connection of set) connection.send({ type: "buyOrderUpdate", order });
  }

  async stop() {
    await this.unsubscribe?.();
  }
}
