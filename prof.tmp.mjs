import { chromium } from "@playwright/test";
const base = "http://127.0.0.1:5183";
const path = process.argv[2] ?? "/";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
await cdp.send("Profiler.enable");
await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
await page.addInitScript(() => { window.__lt = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lt.push([Math.round(e.startTime), Math.round(e.duration)]); }).observe({ type: "longtask", buffered: true }); });
await cdp.send("Profiler.start");
await page.goto(base + path, { waitUntil: "load" });
await page.waitForTimeout(5000);
const { profile } = await cdp.send("Profiler.stop");
console.log("longtasks", JSON.stringify(await page.evaluate(() => window.__lt)));
console.log("fcp", await page.evaluate(() => performance.getEntriesByName("first-contentful-paint")[0]?.startTime));
// self time by function
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas; 
profile.samples.forEach((id, i) => { const n = byId.get(id); const f = n.callFrame; const key = `${f.functionName || "(anon)"} ${f.url.split("/").pop()}:${f.lineNumber}`; self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000); });
const byFile = new Map(); for (const [k, v] of self) { const f = k.split(" ").pop().split(":")[0]; byFile.set(f, (byFile.get(f) ?? 0) + v); }
console.log([...byFile.entries()].sort((a, b) => b[1] - a[1]).slice(0, 14).map(([k, v]) => `${v.toFixed(0)}ms ${k}`).join(" | "));
console.log([...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 16).map(([k, v]) => `${v.toFixed(1)}ms ${k}`).join("\n"));
await browser.close();
