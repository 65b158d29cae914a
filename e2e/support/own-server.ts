import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export type OwnServer = {
  url: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
  /** Stops the process and starts a new one on the same port and data directory. */
  restart(): Promise<void>;
};

/**
 * A server of the test's own (the production build via scripts/start.mjs), for tests that stop or restart it.
 * Its data directory persists across `restart()`, as a real deployment's does.
 */
export async function startOwnServer(env: Record<string, string> = {}): Promise<OwnServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "cpxtb-e2e-own-"));
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  const start = async () => {
    child = spawn(process.execPath, ["scripts/start.mjs"], {
      env: {
        ...process.env,
        SKIP_BUILD: "1",
        NODE_ENV: "production",
        HOST: "127.0.0.1",
        PORT: String(port),
        PUBLIC_URL: url,
        DATA_DIR: dataDir,
        DATABASE_URL: "",
        // Its own counts and windows: other e2e servers run at the same time.
        REDIS_URL: "",
        LOG_LEVEL: "warn",
        // Its local chain can be slow to answer while a busy CI machine runs other browsers: don't give up at 4 s.
        RPC_TIMEOUT_MS: "20000",
        ...env,
      },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const deadline = Date.now() + 150_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      try {
        if ((await fetch(`${url}/api/health`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    throw new Error("server did not start within 150 s");
  };

  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once("exit", () => resolve());
      running.kill("SIGTERM");
    });
  };

  await start();
  return {
    url,
    port,
    dataDir,
    stop,
    async restart() {
      await stop();
      await start();
    },
  };
}
