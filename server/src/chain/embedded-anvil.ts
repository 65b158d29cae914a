import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { connect, createServer } from "node:net";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/**
 * The anvil binary shipped by `@foundry-rs/anvil` in its platform package. We spawn it ourselves instead of the
 * package's `bin.mjs` wrapper so that the process we hold is anvil itself and can be stopped reliably.
 */
export function findAnvilBinary(): string {
  if (process.env.ANVIL_BINARY) return process.env.ANVIL_BINARY;
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  const pkg = `@foundry-rs/anvil-${process.platform}-${arch}`;
  let dir: string;
  try {
    dir = dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new Error(
      `anvil is not installed for ${process.platform}/${process.arch} (${pkg}); run npm install.`,
    );
  }
  return join(dir, "bin", process.platform === "win32" ? "anvil.exe" : "anvil");
}

export async function findFreePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}

export type AnvilOptions = {
  chainId?: number;
  port?: number;
  /** Load state from and dump it to this file (also periodically, so a crash loses at most a few seconds). */
  stateFile?: string;
  stateIntervalSeconds?: number;
  /** A pid file next to the state; a previous anvil still running on that state (orphaned by a SIGKILL) is stopped. */
  pidFile?: string;
  startTimeoutMs?: number;
};

export type EmbeddedAnvil = {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
};

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Whatever ends the Node process, no anvil child may outlive it. */
function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    // SIGTERM (not SIGKILL) so anvil still writes its state file on the way out.
    for (const child of running) child.kill("SIGTERM");
  });
}

export async function startAnvil(options: AnvilOptions = {}): Promise<EmbeddedAnvil> {
  if (options.pidFile) await stopOrphan(options.pidFile);
  // Port 0 unless one is asked for: anvil binds a port the system gives it and says which ("Listening on
  // 127.0.0.1:PORT"). A port found free beforehand could be bound by another anvil meanwhile (test files start theirs
  // in parallel), and this one, failing to bind and about to exit, would look started because the other answered.
  const args = [
    "--host",
    "127.0.0.1",
    "--port",
    String(options.port ?? 0),
    "--chain-id",
    String(options.chainId ?? 31337),
  ];
  if (options.stateFile) {
    args.push("--state", options.stateFile, "--state-interval", String(options.stateIntervalSeconds ?? 5));
  }
  // Not --silent: that also hides the line that names the port. Its output (a banner, then a line per request) is
  // read up to that line and dropped from then on.
  const child = spawn(findAnvilBinary(), args, { stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  installExitHook();
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  let listening: number | null = null;
  let stdout = "";
  const onStdout = (chunk: string) => {
    stdout = (stdout + chunk).slice(-4000);
    const match = stdout.match(/Listening on [^\s:]+:(\d+)\s/);
    if (!match) return;
    listening = Number(match[1]);
    stdout = "";
    child.stdout?.off("data", onStdout);
    child.stdout?.resume();
  };
  child.stdout?.setEncoding("utf8").on("data", onStdout);
  const exited = new Promise<number | null>((resolve) => {
    child.once("exit", (code) => {
      running.delete(child);
      resolve(code);
    });
    child.once("error", (error) => {
      running.delete(child);
      stderr += String(error);
      resolve(-1);
    });
  });
  if (options.pidFile && child.pid)
    writeFileSync(options.pidFile, `${child.pid}\n${options.stateFile ?? ""}\n`);

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
    if (options.pidFile) rmSync(options.pidFile, { force: true });
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 15_000);
  let url = "";
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `anvil exited during start-up (code ${child.exitCode}): ${stderr.trim() || "no output"}`,
      );
    }
    // A refused connection costs about 0.1 ms of CPU, a refused HTTP request (undici, a timeout signal) 1-2.5 ms,
    // taken from the database's start beside this one: ask for the chain id once the port accepts.
    if (listening !== null) {
      url = `http://127.0.0.1:${listening}`;
      if ((await accepts(listening)) && (await answersChainId(url))) break;
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`anvil did not start within ${options.startTimeoutMs ?? 15_000} ms: ${stderr.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const port = listening as unknown as number;
  return { url, port, pid: child.pid ?? -1, stop };
}

/** anvil as the embedded chain runs it (embedded.ts): its state and its pid file under DATA_DIR. */
export function startEmbeddedAnvil(chainId: number, dataDir: string): Promise<EmbeddedAnvil> {
  mkdirSync(dataDir, { recursive: true });
  return startAnvil({
    chainId,
    stateFile: join(dataDir, "anvil-state.json"),
    pidFile: join(dataDir, "anvil.pid"),
  });
}

/** Whether anything accepts a TCP connection on the loopback port (an answer within 500 ms, as for eth_chainId). */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const done = (accepted: boolean) => {
      socket.destroy();
      resolve(accepted);
    };
    socket.setTimeout(500, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

async function answersChainId(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(500),
    });
    return response.ok;
  } catch {
    return false;
  }
}

/** Stops an anvil left running on our state file by a previous server that was killed without cleanup. */
async function stopOrphan(pidFile: string) {
  if (!existsSync(pidFile)) return;
  const [pidText, stateFile] = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(pidText);
  rmSync(pidFile, { force: true });
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    // Only a process that is really anvil on our state file: a recycled pid must never be killed.
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    if (!cmdline[0]?.endsWith("anvil") || (stateFile && !cmdline.includes(stateFile))) return;
    process.kill(pid, "SIGTERM");
  } catch {
    return; // Not running any more (or not Linux): nothing to do.
  }
  // It writes the state on its way out; loading it before that finishes would lose the newest blocks.
  for (let i = 0; i < 250 && existsSync(`/proc/${pid}`); i++) await new Promise((r) => setTimeout(r, 20));
}
