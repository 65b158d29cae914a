import { chromium } from "@playwright/test";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
const base = process.argv[2];
let cookie = "";
const call = async (method, path, body) => {
  const r = await fetch(`${base}${path}`, { method, headers: { "content-type": "application/json", origin: base, cookie }, body: body ? JSON.stringify(body) : undefined });
  const set = r.headers.get("set-cookie"); if (set) cookie = set.split(";")[0];
  if (!r.ok) throw new Error(`${path} ${r.status} ${await r.text()}`);
  return r.json();
};
await call("POST", "/api/register", { username: `prof_${Date.now().toString(36)}`, password: "correct horse battery staple" });
const wallet = privateKeyToAccount(generatePrivateKey());
const { nonce, message } = await call("POST", "/api/merchant/wallet-challenge", { address: wallet.address });
await call("POST", "/api/merchant", { name: "Corner Coffee", businessType: "food", contactEmail: "o@example.com", walletAddress: wallet.address, proof: { nonce, signature: await wallet.signMessage({ message }) } });
await call("POST", "/api/merchant/payments", { currency: "USD", amount: "12.50", description: "Flat white", expiresInMinutes: 60 });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium" });
const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
const [name, value] = cookie.split("=");
await context.addCookies([{ name, value, url: base }]);
for (let run = 0; run < 3; run++) {
const page = await context.newPage();
const cdp = await context.newCDPSession(page);
await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
await cdp.send("Profiler.enable");
await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
await cdp.send("Profiler.start");
await page.goto(base + "/merchant");
await page.getByText("New payment").first().waitFor();
const { profile } = await cdp.send("Profiler.stop");
const timing = await page.evaluate(() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const res = performance.getEntriesByType("resource").map((r) => [r.name.replace(/^.*\/\/[^/]+/, "").slice(0, 50), Math.round(r.startTime), Math.round(r.responseEnd)]);
  const paints = performance.getEntriesByType("paint").map((p) => [p.name, Math.round(p.startTime)]);
  return { dcl: Math.round(nav.domContentLoadedEventEnd), res, paints };
});
console.log("run", run, JSON.stringify(timing.paints), "dcl", timing.dcl);
if (run === 2) for (const r of timing.res) console.log("  ", r.join(" "));
// timeline of samples: bucket by 25 ms from profile start, idle vs busy
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
let t = 0; const buckets = new Map();
profile.samples.forEach((id, i) => { t += profile.timeDeltas[i] / 1000; const n = byId.get(id); const kind = n.callFrame.functionName === "(idle)" ? "idle" : n.callFrame.functionName === "(program)" ? "prog" : "js"; const b = Math.floor(t / 50) * 50; const o = buckets.get(b) ?? { idle: 0, prog: 0, js: 0, top: new Map() }; o[kind] += profile.timeDeltas[i] / 1000; if (kind === "js") { const k = `${n.callFrame.functionName || "anon"}@${n.callFrame.url.replace(/^.*\//, "").slice(0, 30)}`; o.top.set(k, (o.top.get(k) ?? 0) + profile.timeDeltas[i] / 1000); } buckets.set(b, o); });
if (run === 2) for (const [b, o] of [...buckets].sort((a, b) => a[0] - b[0])) console.log(String(b).padStart(5), "idle", o.idle.toFixed(0).padStart(3), "prog", o.prog.toFixed(0).padStart(3), "js", o.js.toFixed(0).padStart(3), [...o.top].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([k, v]) => `${k}:${v.toFixed(0)}`).join(" "));
await page.close();
}
await browser.close();
