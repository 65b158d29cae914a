import { REALTIME_PATH } from "@common/realtime-path.ts";

type Message = { type: string; [key: string]: unknown };
type Listener = (message: Message) => void;
type StatusListener = (open: boolean) => void;

/** Where a page's live subscription stands: not open yet, open, or open before and lost since. */
export type LiveState = "connecting" | "live" | "lost";

const BASE_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;

/**
 * The one WebSocket of the page (/ws), shared by every live feature (user count, payment updates). It
 * connects while at least one feature uses it, reconnects with exponential backoff and full jitter, and
 * hands each parsed message to the listeners of its `type`. Unparseable messages are logged, nothing more.
 */
class LiveSocket {
  private socket: WebSocket | null = null;
  private users = 0;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private listeners = new Map<string, Set<Listener>>();
  private statusListeners = new Set<StatusListener>();
  private openHandlers = new Set<() => void>();
  isOpen = false;

  /** Starts using the socket; returns a function that stops using it (the last user closes it). */
  retain(): () => void {
    this.users += 1;
    if (this.users === 1) this.connect();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.users -= 1;
      if (this.users === 0) this.disconnect();
    };
  }

  on(type: string, listener: Listener): () => void {
    const set = this.listeners.get(type) ?? new Set();
    set.add(listener);
    this.listeners.set(type, set);
    return () => set.delete(listener);
  }

  onStatus(listener: StatusListener): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Runs on every (re)connection, e.g. to ask for state or re-send subscriptions. */
  onOpen(handler: () => void): () => void {
    this.openHandlers.add(handler);
    if (this.isOpen) handler();
    return () => this.openHandlers.delete(handler);
  }

  /**
   * Starts a new connection at once. The server knows who is signed in only from the cookie of the upgrade
   * request, so the socket is opened again whenever the session changes (sign-in, sign-out, another account);
   * the open handlers then send their subscriptions with the new session.
   */
  reconnect() {
    if (this.users === 0) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const previous = this.socket;
    this.socket = null;
    if (previous) closeQuietly(previous);
    this.setOpen(false);
    this.attempt = 0;
    this.connect();
  }

  send(message: Message): boolean {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  private connect() {
    const protocol = window.location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${protocol}//${window.location.host}${REALTIME_PATH}`);
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.attempt = 0;
      this.setOpen(true);
      for (const handler of this.openHandlers) handler();
    };
    // A replaced connection's late messages belong to the previous session: dropped.
    socket.onmessage = (event) => this.socket === socket && this.dispatch(event.data);
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.setOpen(false);
      if (this.users > 0) this.scheduleReconnect();
    };
  }

  private dispatch(data: unknown) {
    let message: unknown;
    try {
      message = JSON.parse(String(data));
    } catch (error) {
      console.warn("Live connection: could not parse a message", error);
      return;
    }
    const type = (message as { type?: unknown } | null)?.type;
    if (typeof type !== "string") {
      console.warn("Live connection: message without a type", message);
      return;
    }
    for (const listener of this.listeners.get(type) ?? []) listener(message as Message);
  }

  private scheduleReconnect() {
    const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** this.attempt);
    this.attempt += 1;
    // Full jitter: after an outage, clients come back spread out instead of all at once.
    const delay = Math.random() * ceiling;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.users > 0) this.connect();
    }, delay);
  }

  private disconnect() {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const socket = this.socket;
    this.socket = null;
    if (socket) closeQuietly(socket);
    this.setOpen(false);
  }

  private setOpen(open: boolean) {
    if (this.isOpen === open) return;
    this.isOpen = open;
    for (const listener of this.statusListeners) listener(open);
  }
}

/** Closing a socket that is still connecting makes the browser log an error: it is closed once open instead. */
function closeQuietly(socket: WebSocket) {
  if (socket.readyState === WebSocket.CONNECTING) socket.onopen = () => socket.close();
  else socket.close();
}

export const liveSocket = new LiveSocket();
