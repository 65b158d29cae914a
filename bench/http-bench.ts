// Shared by the benches that drive a server as `npm start` runs it, over HTTP: autocannon in a process of its own
// (so the load generator does not share the server's event loop), and a merchant with one open payment.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

export type AutocannonResult = {
  requests: { average: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
};

export function autocannon(
  url: string,
  options: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<AutocannonResult> {
  const args = [
    "autocannon",
    "--json",
    "-c",
    String(options.connections),
    "-d",
    String(options.seconds),
    url,
  ];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push("-H", `${name}=${value}`);
  return new Promise((resolve, reject) => {
    const child = spawn("npx", args, { stdio: ["ignore", "pipe", "ignore"] });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.on("exit", (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`autocannon exited with ${code}`)),
    );
  });
}

/** A new account whose business has a fresh wallet proved by signature (as the dashboard does), and its payment. */
export async function createMerchantWithPayment(address: string, username: string) {
  const call = async (path: string, body: unknown, cookie?: string) => {
    const res = await fetch(`${address}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: address, ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res;
  };
  const register = await call("/api/register", { username, password: "a long bench passphrase" });
  const cookie = register.headers.get("set-cookie")?.split(";")[0];
  if (!cookie) throw new Error("/api/register set no session cookie");
  const wallet = privateKeyToAccount(generatePrivateKey());
  const challenge = (await (
    await call("/api/merchant/wallet-challenge", { address: wallet.address }, cookie)
  ).json()) as { nonce: string; message: string };
  await call(
    "/api/merchant",
    {
      name: "Bench Coffee",
      businessType: "food",
      contactEmail: "owner@example.com",
      walletAddress: wallet.address,
      proof: { nonce: challenge.nonce, signature: await wallet.signMessage({ message: challenge.message }) },
    },
    cookie,
  );
  const payment = (await (
    await call("/api/merchant/payments", { currency: "USD", amount: "10.00" }, cookie)
  ).json()) as { reference: string };
  return { cookie, reference: payment.reference };
}

/** A new PostgreSQL database beside the one `databaseUrl` names: its URL, and `drop` to remove it afterwards. */
export async function createBenchDatabase(
  databaseUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `cpxtb_bench_${randomBytes(4).toString("hex")}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(sql);
    await client.end();
  };
  await admin(`create database "${name}"`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists "${name}" with (force)`) };
}
