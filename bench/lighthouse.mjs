// Lighthouse (mobile preset: simulated slow 4G and 4x CPU slowdown) for `/`, `/blog` and one post, against the
// production build served by its own server (`npx vite build` first; `npm run bench` does it).
// Prints the performance score, LCP, TBT, CLS and the JavaScript each page loads (transfer size).
// Options: --runs=N runs each page N times and prints the median run (by score; the machine is shared, so one
// run is noisy); --json=DIR writes each full Lighthouse report there (LCP element and phases, bootup time ...);
// --page=/path (repeatable) measures only those paths.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const root = join(import.meta.dirname, "..");
const option = (name) =>
  process.argv.filter((a) => a.startsWith(`--${name}=`)).map((a) => a.slice(name.length + 3));
const runs = Math.max(1, Number(option("runs")[0] ?? 1));
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

let chrome;
try {
  await waitForServer();
  const { posts } = await (await fetch(`${base}/api/blog`)).json();
  const pages = option("page").length > 0 ? option("page") : ["/", "/blog", `/blog/${posts.at(-1).slug}`];
  chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const rows = [];
  for (const path of pages) {
    const measured = [];
    for (let run = 1; run <= runs; run++) {
      const result = await lighthouse(`${base}${path}`, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance"],
      });
      const { lhr } = result;
      if (lhr.runtimeError) {
        // A failed run (e.g. NO_NAVSTART on a busy machine) scores 0: leave it out of the median.
        console.log(`  ${path} run ${run}: ${lhr.runtimeError.code}, left out`);
        continue;
      }
      if (jsonDir) {
        const name = path.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "") || "home";
        writeFileSync(join(jsonDir, `${name}-${run}.json`), result.report);
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
  const failing = rows.filter((r) => r.score < 95);
  if (failing.length > 0) console.log(`  below the 95 target: ${failing.map((r) => r.page).join(", ")}`);
} finally {
  await chrome?.kill();
  server.kill("SIGTERM");
  await new Promise((resolve) => server.once("exit", resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
