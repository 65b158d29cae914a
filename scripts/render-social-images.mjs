// Renders the social preview images (client/public/images/social-card.svg and images/blog/*.svg, 1200x630) to PNG
// beside each SVG: Open Graph and Twitter cards need PNG or JPEG. The PNGs are committed; run this again after
// changing or adding one of those SVGs: `node scripts/render-social-images.mjs` (Debian chromium, no download).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "@playwright/test";

const images = join(import.meta.dirname, "../client/public/images");
const sources = [
  join(images, "social-card.svg"),
  ...readdirSync(join(images, "blog"))
    .filter((name) => name.endsWith(".svg"))
    .map((name) => join(images, "blog", name)),
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 630 } });
  for (const source of sources) {
    const svg = readFileSync(source, "utf8");
    await page.setContent(
      `<!doctype html><html><body style="margin:0">${svg.replace(/<svg /, '<svg style="display:block" ')}</body></html>`,
    );
    const target = source.replace(/\.svg$/, ".png");
    await page.screenshot({ path: target, clip: { x: 0, y: 0, width: 1200, height: 630 } });
    console.log(`wrote ${target}`);
  }
} finally {
  await browser.close();
}
