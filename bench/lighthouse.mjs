// Lighthouse (mobile preset: simulated slow 4G and 4x CPU slowdown) for `/`, `/blog`, one post, the pay page of an
// open payment and the signed-in merchant dashboard (it creates the merchant and the payment), against the
// production build served by its own server (`npx vite build` first; `npm run bench` does it).
// Prints the performance score, LCP, TBT, CLS and the JavaScript each page loads (transfer size).
// Options: --runs=N (default 5) runs each page N times and prints the median run (by score; the machine is shared,
// so one run is noisy); --json=DIR writes each full Lighthouse report there (LCP element and phases, bootup time ...)
// with its trace beside it (NAME-RUN.trace.json, which Chrome's performance panel opens); --page=/path (repeatable)
// measures only those paths (--page=/pay: the pay page of the payment it created).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
// Lighthouse's own browser driver (a dependency of lighthouse): puts the session cookie in the browser's jar.
import puppeteer from "puppeteer-core";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";

const root = join(import.meta.dirname, "..");
const option = (name) =>
  process.argv.filter((a) => a.startsWith(`--${name}=`)).map((a) => a.slice(name.length + 3));
const runs = Math.max(1, Number(option("runs")[0] ?? 5));
const loadAtStart = loadavg()[0].toFixed(2);
const jsonDir = option("json")[0];
if (jsonDir) mkdirSync(jsonDir, { recursive: true });
const chromePath = process.env.CHROME_PATH ?? "/usr/bin/chromium";

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), "cpxtb-lighthouse-"));
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ["scripts/start.mjs"], {
  cwd: root,
  env: {
    ...process.env,
    SKIP_BUILD: "1",
    NODE_ENV: "production",
    HOST: "127.0.0.1",
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    LOG_LEVEL: "warn",
  },
  stdio: ["ignore", "ignore", "inherit"],
});

async function waitForServer() {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("server did not start within 90 s");
}

/** A merchant with a business and one open payment, as a person would make them: its session cookie and reference. */
async function createMerchantAndPayment() {
  let cookie = "";
  const call = async (method, path, body) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { "content-type": "application/json", origin: base, cookie },
      body: body ? JSON.stringify(body) : undefined,
    });
    const set = response.headers.get("set-cookie");
    if (set) cookie = set.split(";")[0];
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  await call("POST", "/api/register", {
    username: `bench_${Date.now().toString(36)}`,
    password: "correct horse battery staple",
  });
  const wallet = privateKeyToAccount(generatePrivateKey());
  const { nonce, message } = await call("POST", "/api/merchant/wallet-challenge", {
    address: wallet.address,
  });
  await call("POST", "/api/merchant", {
    name: "Corner Coffee",
    businessType: "food",
    contactEmail: "owner@example.com",
    walletAddress: wallet.address,
    proof: { nonce, signature: await wallet.signMessage({ message }) },
  });
  const payment = await call("POST", "/api/merchant/payments", {
    currency: "USD",
    amount: "12.50",
    description: "Flat white",
    expiresInMinutes: 60,
  });
  return { cookie, reference: payment.reference };
}

/** Puts the merchant's session cookie into the browser, as signing in would have. */
async function signInBrowser(chromePort, cookie) {
  const [name, value] = cookie.split("=");
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chromePort}` });
  try {
    await browser.setCookie({ name, value, domain: "127.0.0.1", path: "/", httpOnly: true, sameSite: "Lax" });
  } finally {
    await browser.disconnect();
  }
}

/**
 * Empties the browser's HTTP cache and keeps its cookies: what Lighthouse's own storage reset would do for a run
 * that keeps the session (`disableStorageReset` skips both), so the dashboard is measured on a first visit.
 */
async function clearHttpCache(chromePort) {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chromePort}` });
  try {
    const page = (await browser.pages())[0] ?? (await browser.newPage());
    const session = await page.createCDPSession();
    await session.send("Network.clearBrowserCache");
    await session.detach();
  } finally {
    await browser.disconnect();
  }
}

let chrome;
try {
  await waitForServer();
  const { posts } = await (await fetch(`${base}/api/blog`)).json();
  const merchant = await createMerchantAndPayment();
  const pages =
    option("page").length > 0
      ? option("page").map((path) => (path === "/pay" ? `/pay/${merchant.reference}` : path))
      : ["/", "/blog", `/blog/${posts.at(-1).slug}`, `/pay/${merchant.reference}`, "/merchant"];
  chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  if (pages.includes("/merchant")) await signInBrowser(chrome.port, merchant.cookie);
  const rows = [];
  for (const path of pages) {
    const measured = [];
    for (let run = 1; run <= runs; run++) {
      if (path === "/merchant") await clearHttpCache(chrome.port);
      const result = await lighthouse(`${base}${path}`, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance"],
        // The dashboard is measured signed in: with the session cookie in the browser's jar (signInBrowser),
        // which Lighthouse must not clear. A Cookie header on the navigation alone was not enough: the app's own
        // GET /api/user went without it, and the run measured the sign-in page the app then showed.
        disableStorageReset: path === "/merchant",
      });
      const { lhr } = result;
      if (lhr.runtimeError) {
        // A failed run (e.g. NO_NAVSTART on a busy machine) scores 0: leave it out of the median.
        console.log(`  ${path} run ${run}: ${lhr.runtimeError.code}, left out`);
        continue;
      }
      const landed = new URL(lhr.finalDisplayedUrl).pathname;
      if (landed !== path) throw new Error(`${path} ended on ${landed}: not the page meant to be measured`);
      if (jsonDir) {
        const name = path.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "") || "home";
        writeFileSync(join(jsonDir, `${name}-${run}.json`), result.report);
        writeFileSync(join(jsonDir, `${name}-${run}.trace.json`), JSON.stringify(result.artifacts.Trace));
      }
      const audit = (id) => lhr.audits[id];
      const requests = audit("network-requests")?.details?.items ?? [];
      const scriptKb = requests
        .filter((r) => r.resourceType === "Script")
        .reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
      measured.push({
        page: path,
        score: Math.round((lhr.categories.performance.score ?? 0) * 100),
        lcp: audit("largest-contentful-paint").displayValue,
        tbt: audit("total-blocking-time").displayValue,
        cls: audit("cumulative-layout-shift").displayValue,
        fcp: audit("first-contentful-paint").displayValue,
        js: `${(scriptKb / 1024).toFixed(1)} KB`,
        lcpMs: audit("largest-contentful-paint").numericValue,
        tbtMs: audit("total-blocking-time").numericValue,
        clsValue: audit("cumulative-layout-shift").numericValue,
      });
    }
    if (measured.length === 0) throw new Error(`every Lighthouse run of ${path} failed`);
    measured.sort((a, b) => a.score - b.score);
    const median = measured[Math.floor((measured.length - 1) / 2)];
    rows.push({ ...median, all: measured.map((m) => m.score).join(" ") });
  }
  console.log("Lighthouse mobile (simulated throttling), performance:");
  console.log(
    "  page                                                    score  LCP      TBT     CLS    FCP      JS (transfer)",
  );
  for (const r of rows) {
    console.log(
      `  ${r.page.padEnd(56)}${String(r.score).padStart(5)}  ${r.lcp.padEnd(8)} ${r.tbt.padEnd(7)} ${r.cls.padEnd(6)} ${r.fcp.padEnd(8)} ${r.js}${runs > 1 ? `  (runs: ${r.all})` : ""}`,
    );
  }
  // Issue 14's budgets (score, LCP ms, TBT ms, CLS), checked on the median run.
  const budget = (page) =>
    page === "/"
      ? { score: 100, lcp: 1200, tbt: 50, cls: 0.01 }
      : page.startsWith("/blog")
        ? { score: 99, lcp: 1500, tbt: 50, cls: 0.01 }
        : page.startsWith("/pay/")
          ? { score: 98, lcp: 1500, tbt: 100, cls: 0.01 }
          : { score: 90, lcp: 2500, tbt: 200, cls: 0.05 };
  for (const r of rows) {
    const b = budget(r.page);
    const over = [
      r.score < b.score && `score ${r.score} < ${b.score}`,
      r.lcpMs > b.lcp && `LCP ${Math.round(r.lcpMs)} ms > ${b.lcp}`,
      r.tbtMs > b.tbt && `TBT ${Math.round(r.tbtMs)} ms > ${b.tbt}`,
      r.clsValue > b.cls && `CLS ${r.clsValue.toFixed(3)} > ${b.cls}`,
    ].filter(Boolean);
    if (over.length > 0) console.log(`  over budget: ${r.page}: ${over.join(", ")}`);
  }
  console.log(`  load average at start ${loadAtStart}, at end ${loadavg()[0].toFixed(2)} (2 cores)`);
} finally {
  await chrome?.kill();
  server.kill("SIGTERM");
  await new Promise((resolve) => server.once("exit", resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
