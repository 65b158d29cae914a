import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";

/**
 * A local TCP proxy a test controls: `cut()` drops every connection through it and refuses new ones (what an
 * instance sees when its network path to Redis fails), `restore()` lets connections through again. The service
 * behind it keeps running for everyone else.
 */
export class TcpProxy {
  private sockets = new Set<Socket>();
  private isCut = false;
  private isStalled = false;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    let proxy: TcpProxy | null = null;
    const server = createServer((client) => {
      if (!proxy || proxy.isCut) {
        client.destroy();
        return;
      }
      const upstream = tcpConnect(target.port, target.host);
      const pair = [client, upstream];
      for (const socket of pair) {
        proxy.sockets.add(socket);
        socket.on("error", () => {});
        socket.on("close", () => {
          proxy?.sockets.delete(socket);
          for (const other of pair) other.destroy();
        });
      }
      // Forwarded chunk by chunk so `stall()` can hold everything back (a connection that answers nothing).
      client.on("data", (chunk) => {
        if (!proxy?.isStalled) upstream.write(chunk);
      });
      upstream.on("data", (chunk) => {
        if (!proxy?.isStalled) client.write(chunk);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    proxy = new TcpProxy(server, port);
    return proxy;
  }

  /** The target URL with its host and port replaced by the proxy's. */
  url(target: string) {
    const url = new URL(target);
    url.hostname = "127.0.0.1";
    url.port = String(this.port);
    return url.toString();
  }

  cut() {
    this.isCut = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  restore() {
    this.isCut = false;
    this.isStalled = false;
  }

  /** Keeps the connections open but forwards nothing (lost packets, a hung server): only deadlines notice. */
  stall() {
    this.isStalled = true;
  }

  async close() {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
