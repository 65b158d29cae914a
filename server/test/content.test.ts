import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { afterAll, describe, expect, it } from "vitest";
import { createMailer } from "../src/lib/mailer.ts";
import { findContactMessageById } from "../src/modules/contact/repository.ts";
import { loadContent } from "../src/modules/content/content-store.ts";
import { renderMarkdown } from "../src/modules/content/markdown.ts";
import { writeRenderedContent } from "../src/modules/content/prerender-content.ts";
import { createTestApp } from "./helpers.ts";
import { startMailCapture } from "./mail-capture.ts";

// A content folder with the real posts plus one hostile post, and a minimal built client to serve.
const root = mkdtempSync(join(tmpdir(), "cpxtb-content-"));
const contentDir = join(root, "content");
cpSync("content", contentDir, { recursive: true });
const HOSTILE_TITLE = `Quotes " & <b>tags</b> in a title`;
writeFileSync(
  join(contentDir, "blog", "hostile-post.md"),
  `---
title: '${HOSTILE_TITLE}'
summary: "Summary with </title><script>alert(1)</script> inside"
date: 2020-01-01
tags: [test]
image: /images/blog/security.svg
---

Hello <script>alert("x")</script> and <img src=x onerror=alert(1)>.

[click me](javascript:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=) [ok](https://example.com)
`,
);
const clientDist = join(root, "dist");
mkdirSync(clientDist);
writeFileSync(
  join(clientDist, "index.html"),
  `<!doctype html><html><head><meta charset="UTF-8" />
    <meta
      name="description"
      content="generic"
    />
    <title>CPXTB Pay</title>
    <script type="module" crossorigin src="/assets/index-Ab1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-Cd2.js">
    <link rel="modulepreload" crossorigin href="/assets/boot-Kl6.js">
    <link rel="modulepreload" crossorigin href="/assets/icons-Mn7.js">
    <link rel="stylesheet" crossorigin href="/assets/index-Ab1.css"></head><body><div id="root"></div></body></html>`,
);
mkdirSync(join(clientDist, "assets"));
// The build's manifest (decision 023): the dashboard's route chunk and what it imports beyond the entry.
mkdirSync(join(clientDist, ".vite"));
writeFileSync(
  join(clientDist, ".vite", "manifest.json"),
  JSON.stringify({
    "index.html": {
      file: "assets/index-Ab1.js",
      isEntry: true,
      imports: ["_react-Cd2.js"],
      // main.tsx's boot steps (decision 036): index.html preloads them beside the entry.
      dynamicImports: ["_boot-Kl6.js"],
    },
    "_react-Cd2.js": { file: "assets/react-Cd2.js" },
    "_boot-Kl6.js": { file: "assets/boot-Kl6.js", imports: ["_react-Cd2.js", "_icons-Mn7.js"] },
    "_icons-Mn7.js": { file: "assets/icons-Mn7.js" },
    "src/app/routes/merchant.tsx": {
      file: "assets/merchant-Ef3.js",
      isDynamicEntry: true,
      imports: ["_react-Cd2.js", "_query-Gh4.js", "_icons-Mn7.js"],
    },
    "_query-Gh4.js": { file: "assets/query-Gh4.js" },
    "src/app/side-menu-panel.tsx": {
      file: "assets/side-menu-panel-Ij5.js",
      isDynamicEntry: true,
      imports: ["_react-Cd2.js", "_query-Gh4.js"],
    },
    "src/app/routes/blog-post.tsx": {
      file: "assets/blog-post-Op8.js",
      isDynamicEntry: true,
      imports: ["_react-Cd2.js", "_query-Gh4.js"],
    },
  }),
);
writeFileSync(join(clientDist, "assets", "index-Ab1.css"), "body{margin:0}.p-4{padding:1rem}");
// A stand-in for the build's server-rendering entry (dist/ssr beside dist/client; decision 009).
mkdirSync(join(root, "ssr"));
writeFileSync(
  join(root, "ssr", "entry-server.js"),
  `export async function renderPage(path, data) {
    if (path !== "/" && path !== "/blog" && !path.startsWith("/blog/") && path !== "/merchant") return null;
    return "<main data-rendered-path=\\"" + path + "\\">" + Object.keys(data).join(",") + "</main>";
  }
  export async function translate(locale, id) {
    return locale + ":" + id;
  }`,
);

const mail = await startMailCapture();
afterAll(() => mail.close());
const app = await createTestApp(
  {
    contentDir,
    clientDist,
    contactEmail: "team@example.test",
    publicUrl: "https://pay.example.com",
    rateLimits: {
      ...(await import("../src/config.ts")).testConfig().rateLimits,
      contact: { limit: 3, windowMs: 60_000 },
    },
  },
  {
    mailer: createMailer({
      smtpUrl: mail.url,
      from: "CPXTB Pay <no-reply@example.test>",
      dataDir: root,
      log: (await import("pino")).pino({ level: "silent" }),
    }),
  },
);

const slugs = readdirSync(join(contentDir, "blog")).map((f) => f.replace(/\.md$/, ""));
const parser = new XMLParser({
  ignoreAttributes: false,
  htmlEntities: true,
  isArray: (name) => ["item", "url", "category"].includes(name),
});

describe("blog API", () => {
  it("lists every post newest first with reading time", async () => {
    const res = await app.inject({ method: "GET", url: "/api/blog" });
    expect(res.statusCode).toBe(200);
    const { posts } = res.json() as { posts: { slug: string; date: string; readingMinutes: number }[] };
    expect(posts.map((p) => p.slug).sort()).toEqual([...slugs].sort());
    expect([...posts].sort((a, b) => b.date.localeCompare(a.date))).toEqual(posts);
    for (const post of posts) expect(post.readingMinutes).toBeGreaterThanOrEqual(1);
  });

  it("serves a post with neighbours, and 404 in the error shape for an unknown slug", async () => {
    const res = await app.inject({ method: "GET", url: "/api/blog/confirmations-and-why-they-matter" });
    expect(res.statusCode).toBe(200);
    const post = res.json();
    expect(post.html).toContain("<h2");
    expect(post.newer?.slug).toBe("crypto-payment-fees-compared-with-cards");
    expect(post.older?.slug).toBe("how-a-qr-code-crypto-payment-works");
    const missing = await app.inject({ method: "GET", url: "/api/blog/no-such-post" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: { code: "NOT_FOUND", message: expect.any(String) } });
  });

  it("serves the legal documents", async () => {
    for (const slug of ["privacy-policy", "terms-of-service", "legal-documents"]) {
      const res = await app.inject({ method: "GET", url: `/api/legal/${slug}` });
      expect(res.statusCode).toBe(200);
      expect(res.json().updated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    // No such document: not found, like any path parameter no resource can have.
    const unknown = await app.inject({ method: "GET", url: "/api/legal/nope" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe("NOT_FOUND");
  });
});

describe("Markdown rendering", () => {
  it("renders raw HTML as text and refuses script-capable links", async () => {
    const html = (await app.inject({ method: "GET", url: "/api/blog/hostile-post" })).json().html as string;
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain("&lt;script&gt;");
    expect(html).not.toMatch(/href="(javascript|data):/i);
    expect(html).toContain('<a href="https://example.com" target="_blank" rel="noopener noreferrer">ok</a>');
  });

  it("keeps entity-encoded and mixed-case schemes out too", () => {
    const html = renderMarkdown(
      "[a](JaVaScRiPt:alert(1)) [b](&#106;avascript:alert(1)) [c](vbscript:x) ![i](javascript:alert(1))",
    );
    expect(html).not.toMatch(/(href|src)="[^"]*script:/i);
  });

  it("fails loudly on a post with bad front matter", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cpxtb-bad-"));
    cpSync(join(contentDir, "legal"), join(dir, "legal"), { recursive: true });
    mkdirSync(join(dir, "blog"));
    writeFileSync(join(dir, "blog", "bad.md"), "---\ntitle: x\n---\nbody");
    await expect(loadContent(dir)).rejects.toThrow(/bad\.md: invalid front matter/);
  });

  it("a start uses the build's rendering of the same files, and renders again once a file changed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "cpxtb-prerendered-"));
    cpSync("content", dir, { recursive: true });
    const built = join(dir, "content.json");
    writeRenderedContent(dir, built);
    const [post] = JSON.parse(readFileSync(built, "utf8")).posts as { slug: string; html: string }[];
    const fresh = await loadContent(dir, built);
    expect(fresh.getPost(post!.slug)?.html).toBe(post!.html);

    // Marked, to tell the build's rendering from a new one.
    const rendered = JSON.parse(readFileSync(built, "utf8"));
    rendered.posts[0].html = "<p>from the build</p>";
    writeFileSync(built, JSON.stringify(rendered));
    expect((await loadContent(dir, built)).getPost(post!.slug)?.html).toBe("<p>from the build</p>");

    // The same files elsewhere (a deployment's copy) keep it; an edited file is rendered again.
    const moved = mkdtempSync(join(tmpdir(), "cpxtb-moved-"));
    cpSync(dir, moved, { recursive: true });
    expect((await loadContent(moved, built)).getPost(post!.slug)?.html).toBe("<p>from the build</p>");
    const file = join(moved, "blog", `${post!.slug}.md`);
    writeFileSync(file, `${readFileSync(file, "utf8")}\n\nA paragraph added after the build.\n`);
    const edited = (await loadContent(moved, built)).getPost(post!.slug)?.html;
    expect(edited).toContain("<p>A paragraph added after the build.</p>");
    expect(edited).not.toContain("from the build");
  });
});

describe("feeds", () => {
  it("RSS is well-formed XML listing every post, escaped", async () => {
    const res = await app.inject({ method: "GET", url: "/rss.xml" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/application\/rss\+xml/);
    expect(XMLValidator.validate(res.body)).toBe(true);
    const rss = parser.parse(res.body);
    const items = rss.rss.channel.item as { title: string; link: string }[];
    expect(items.map((i) => i.link).sort()).toEqual(
      slugs.map((s) => `https://pay.example.com/blog/${s}`).sort(),
    );
    // The parser decodes entities: the title survives the round trip exactly.
    expect(items.map((i) => i.title)).toContain(HOSTILE_TITLE);
    expect(res.body).not.toContain("<b>tags</b>");
  });

  it("sitemap is well-formed XML with the public pages and every post", async () => {
    const res = await app.inject({ method: "GET", url: "/sitemap.xml" });
    expect(res.statusCode).toBe(200);
    expect(XMLValidator.validate(res.body)).toBe(true);
    const locs = (parser.parse(res.body).urlset.url as { loc: string }[]).map((u) => u.loc);
    for (const page of [
      "/",
      "/blog",
      "/about",
      "/about-us",
      "/contact",
      "/presentation",
      "/privacy-policy",
    ]) {
      expect(locs).toContain(`https://pay.example.com${page}`);
    }
    for (const slug of slugs) expect(locs).toContain(`https://pay.example.com/blog/${slug}`);
  });
});

describe("served HTML", () => {
  const page = (url: string) =>
    app.inject({ method: "GET", url, headers: { "accept-encoding": "identity" } });
  const meta = (html: string, key: string) =>
    new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`).exec(html)?.[1];

  it("carries a post's title, description and social tags", async () => {
    const res = await page("/blog/how-a-qr-code-crypto-payment-works");
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain("<title>How a QR code crypto payment works, step by step · CPXTB Pay</title>");
    expect(html).not.toContain('content="generic"');
    expect(meta(html, "og:type")).toBe("article");
    expect(meta(html, "og:url")).toBe("https://pay.example.com/blog/how-a-qr-code-crypto-payment-works");
    expect(meta(html, "og:image")).toBe("https://pay.example.com/images/blog/qr-payment.png");
    expect(meta(html, "og:image:type")).toBe("image/png");
    expect(meta(html, "twitter:image")).toBe("https://pay.example.com/images/blog/qr-payment.png");
    expect(meta(html, "twitter:card")).toBe("summary_large_image");
    expect(meta(html, "description")).toMatch(/^What is inside the QR code/);
    expect(html.match(/<title>/g)).toHaveLength(1);
  });

  it("escapes what it injects", async () => {
    const html = (await page("/blog/hostile-post")).body;
    expect(html).toContain(
      "<title>Quotes &quot; &amp; &lt;b&gt;tags&lt;/b&gt; in a title · CPXTB Pay</title>",
    );
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(meta(html, "og:description")).toContain("&lt;/title&gt;&lt;script&gt;");
  });

  it("gives static public pages their own tags and leaves other paths generic", async () => {
    expect((await page("/about-us")).body).toContain("<title>About us · CPXTB Pay</title>");
    const other = await page("/no/such/page");
    expect(other.statusCode).toBe(404); // the app, which shows its not-found page
    expect(other.body).toContain("<title>CPXTB Pay</title>");
  });

  it("answers an unknown post with 404 and the app, which shows its not-found state", async () => {
    for (const url of ["/blog/no-such-post", "/blog/no-such-post/"]) {
      const res = await page(url);
      expect(res.statusCode).toBe(404);
      expect(res.headers["content-type"]).toMatch(/^text\/html/);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).toContain('content="generic"');
    }
    expect((await page("/blog/how-a-qr-code-crypto-payment-works/")).statusCode).toBe(200);
  });

  it("points every page's social tags at a 1200x630 PNG that exists", async () => {
    const paths = ["/", "/blog", "/about", ...slugs.map((slug) => `/blog/${slug}`)];
    for (const path of paths) {
      const html = (await page(path)).body;
      const image = meta(html, "og:image");
      expect(image, path).toMatch(/^https:\/\/pay\.example\.com\/images\/.+\.png$/);
      expect(meta(html, "twitter:image"), path).toBe(image);
      expect(meta(html, "og:image:width")).toBe("1200");
      expect(meta(html, "og:image:height")).toBe("630");
      const png = readFileSync(join("client/public", new URL(image as string).pathname));
      expect(png.subarray(1, 4).toString("latin1"), path).toBe("PNG");
      expect([png.readUInt32BE(16), png.readUInt32BE(20)], path).toEqual([1200, 630]);
    }
  });

  it("puts a server-rendered page's markup and data into the HTML, safely", async () => {
    const html = (await page("/blog/hostile-post")).body;
    expect(html).toContain(
      '<div id="root" data-server-rendered><main data-rendered-path="/blog/hostile-post">/api/blog/hostile-post</main></div>',
    );
    const json = /<script type="application\/json" id="server-data">([^<]*)<\/script>/.exec(html)?.[1];
    const data = JSON.parse(json as string) as Record<string, { summary: string; html: string }>;
    expect(data["/api/blog/hostile-post"]?.summary).toBe(
      "Summary with </title><script>alert(1)</script> inside",
    );
    // The data's own and the app's (in the inert template): nothing in the data closed the element.
    expect(html.match(/<\/script>/g)).toHaveLength(2);
    const list = (await page("/blog")).body;
    expect(list).toContain('<main data-rendered-path="/blog">/api/blog</main>');
    // Pages the renderer does not render keep the empty root.
    expect((await page("/about")).body).toContain('<div id="root"></div>');
  });

  it("inlines the stylesheet into a server-rendered page, and links it from the others", async () => {
    const rendered = (await page("/blog")).body;
    expect(rendered).toContain("<style>body{margin:0}.p-4{padding:1rem}</style>");
    // Its link stays, disabled (neither fetched nor applied), so that the app's module loader does not add the same
    // sheet again when a lazy chunk lists it.
    expect(rendered.match(/rel="stylesheet"[^>]*>/g)).toEqual([
      'rel="stylesheet" crossorigin href="/assets/index-Ab1.css" disabled>',
    ]);
    const other = (await page("/about")).body;
    expect(other).toContain('<link rel="stylesheet" crossorigin href="/assets/index-Ab1.css">');
    expect(other).not.toContain("<style>");
    const css = await app.inject({ url: "/assets/index-Ab1.css" });
    expect(css.statusCode).toBe(200);
  });

  it("asks for the dashboard's code and backdrop beside the entry, not after it has run", async () => {
    const dashboard = (await page("/merchant")).body;
    const head = dashboard.slice(0, dashboard.indexOf("</head>"));
    expect(head).toContain(
      '<link rel="preload" as="image" href="/images/backdrop.svg" fetchpriority="high" />',
    );
    expect(head).toContain('<link rel="modulepreload" crossorigin href="/assets/merchant-Ef3.js" />');
    expect(head).toContain('<link rel="modulepreload" crossorigin href="/assets/query-Gh4.js" />');
    expect(head.match(/react-Cd2\.js/g)).toHaveLength(1); // the entry's own import: index.html's link only
    expect(head.match(/icons-Mn7\.js/g)).toHaveLength(1); // loaded by the entry's boot steps: index.html's link only
    expect(head).toContain('<script type="module" crossorigin src="/assets/index-Ab1.js"></script>');
    expect((await page("/payments")).body).not.toContain("merchant-Ef3.js");
  });

  it("renders the dashboard's frame for a signed-in user only, with the user's public view and no cache", async () => {
    const register = await app.inject({
      method: "POST",
      url: "/api/register",
      payload: { username: "frame_owner", password: "correct horse battery staple" },
    });
    expect(register.statusCode).toBe(201);
    const cookie = String(register.headers["set-cookie"]).split(";")[0]!;
    const signedIn = await app.inject({ url: "/merchant", headers: { cookie } });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.headers["cache-control"]).toBe("no-store");
    const html = signedIn.body;
    expect(html).toContain(
      '<div id="root" data-server-rendered><main data-rendered-path="/merchant">/api/user</main>',
    );
    // Its title is the page's own words, in the reader's language (here the stand-in's id).
    expect(html).toMatch(/<title>en:merchant\.page\.title\b/);
    const data = JSON.parse(
      /<script type="application\/json" id="server-data">(.*?)<\/script>/.exec(html)![1]!,
    );
    expect(Object.keys(data["/api/user"]).sort()).toEqual(
      [
        "createdAt",
        "displayName",
        "email",
        "hasPassword",
        "id",
        "pendingEmail",
        "preferences",
        "username",
      ].sort(),
    );
    expect(data["/api/user"].username).toBe("frame_owner");
    // The backdrop it paints with stays in the head; its code waits for the first paint with the entry's.
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head).toContain(
      '<link rel="preload" as="image" href="/images/backdrop.svg" fetchpriority="high" />',
    );
    expect(head).not.toContain("modulepreload");
    const template = /<template id="after-paint">([\s\S]*?)<\/template>/.exec(html)?.[1];
    expect(template).toContain('<link rel="modulepreload" crossorigin href="/assets/merchant-Ef3.js" />');
    // No prefetches: their responses would come in the middle of the dashboard's own loading.
    expect(template).not.toContain('rel="prefetch"');
    // In the reader's language (decision 038): rendered in it, and the answer says so (and varies with it).
    expect(signedIn.headers["content-language"]).toBe("en");
    const arabic = await app.inject({
      url: "/merchant",
      headers: { cookie, "accept-language": "ar-EG,ar;q=0.9" },
    });
    expect(arabic.headers["content-language"]).toBe("ar");
    expect(arabic.headers.vary).toContain("Accept-Language");
    // A session cookie that is no session, and none at all: the client's page (it sends the visitor to /auth).
    for (const headers of [{ cookie: "cpxtb_session=not-a-session" }, {}]) {
      const plain = await app.inject({ url: "/merchant", headers });
      expect(plain.statusCode).toBe(200);
      expect(plain.body).toContain('<div id="root"></div>');
      expect(plain.body).not.toContain("frame_owner");
    }
  });

  it("asks for the app's code (and the session) after a server-rendered page has painted, at once on the others", async () => {
    const rendered = (await page("/blog")).body;
    expect(rendered).toMatch(/<html data-code-after-paint[\s>]/);
    const head = rendered.slice(0, rendered.indexOf("</head>"));
    expect(head).not.toContain('type="module"');
    expect(head).not.toContain("modulepreload");
    const template = /<template id="after-paint">([\s\S]*?)<\/template>/.exec(rendered)?.[1];
    expect(template).toContain('<script type="module" crossorigin src="/assets/index-Ab1.js"></script>');
    expect(template).toContain('<link rel="modulepreload" crossorigin href="/assets/react-Cd2.js">');
    expect(rendered.match(/index-Ab1\.js/g)).toHaveLength(1);
    const other = (await page("/about")).body;
    expect(other).toContain('<script type="module" crossorigin src="/assets/index-Ab1.js"></script>');
    expect(other).not.toContain("after-paint");
  });

  it("lists each chunk to prefetch once: / prefetches the dashboard's and the menu's code, other pages the menu's", async () => {
    const prefetched = async (path: string) => {
      const template = /<template id="after-paint">([\s\S]*?)<\/template>/.exec((await page(path)).body)?.[1];
      return [
        ...(template ?? "").matchAll(/<link rel="prefetch" href="([^"]+)" data-prefetch="([^"]+)" \/>/g),
      ].map(([, href, name]) => `${name} ${href}`);
    };
    // The menu's panel shares its query chunk with the dashboard: one link, not two.
    expect(await prefetched("/")).toEqual([
      "home /assets/merchant-Ef3.js",
      "home /assets/query-Gh4.js",
      "side-menu /assets/side-menu-panel-Ij5.js",
    ]);
    expect(await prefetched("/blog")).toEqual([
      "side-menu /assets/side-menu-panel-Ij5.js",
      "side-menu /assets/query-Gh4.js",
    ]);
    // A post's own code is preloaded with the app's (the module loader then adds no link of its own), and its
    // prefetch links do not name it again.
    const post = /<template id="after-paint">([\s\S]*?)<\/template>/.exec(
      (await page("/blog/how-a-qr-code-crypto-payment-works")).body,
    )?.[1];
    expect(post).toContain('<link rel="modulepreload" crossorigin href="/assets/blog-post-Op8.js" />');
    expect(post).toContain('<link rel="modulepreload" crossorigin href="/assets/query-Gh4.js" />');
    expect(post?.indexOf("blog-post-Op8.js")).toBeGreaterThan(post?.indexOf("index-Ab1.js") ?? Infinity);
    expect(await prefetched("/blog/how-a-qr-code-crypto-payment-works")).toEqual([
      "side-menu /assets/side-menu-panel-Ij5.js",
    ]);
  });
});

describe("contact", () => {
  const send = (payload: Record<string, string>) =>
    app.inject({ method: "POST", url: "/api/contact", payload });
  const valid = {
    name: "Ada Merchant",
    email: "ada@example.org",
    subject: "Question about webhooks",
    message: "How often are failed deliveries retried?",
  };

  it("stores a valid message and emails the team", async () => {
    const res = await send(valid);
    expect(res.statusCode).toBe(201);
    const { id } = res.json() as { id: string };
    expect(id).toMatch(/^msg_/);
    const mailed = await mail.waitFor("team@example.test");
    expect(mailed.raw).toContain(`[Contact ${id}] Question about webhooks`);
    expect(mailed.raw).toContain("How often are failed deliveries retried?");
    expect(mailed.raw).toMatch(/Reply-To: "?Ada Merchant"? <ada@example.org>/i);
    const row = await findContactMessageById(app.database.db, id);
    expect(row).toMatchObject({ name: "Ada Merchant", email: "ada@example.org", subject: valid.subject });
    await expect
      .poll(async () => (await findContactMessageById(app.database.db, id))?.emailedAt)
      .toBeTruthy();
  });

  it("answers 400 with a message per field", async () => {
    const res = await send({ name: " ", email: "not-an-email", subject: "Hi", message: "short" });
    expect(res.statusCode).toBe(400);
    const body = res.json() as { error: { code: string; details: { fields: Record<string, string> } } };
    expect(body.error.code).toBe("VALIDATION_ERROR");
    expect(body.error.details.fields).toEqual({
      name: "Name is required.",
      email: "Enter a valid email address, like name@example.com.",
      subject: "Subject must be at least 3 characters.",
      message: "Message must be at least 10 characters.",
    });
  });

  it("over the limit answers 429 with a challenge", async () => {
    let res = await send(valid);
    for (let i = 0; i < 5 && res.statusCode !== 429; i++) res = await send(valid);
    expect(res.statusCode).toBe(429);
    const body = res.json() as { error: { code: string }; challenge: { token: string; equation: string } };
    expect(body.error.code).toBe("RATE_LIMITED");
    expect(body.challenge.token).toEqual(expect.any(String));
    expect(body.challenge.equation).toEqual(expect.any(String));
  });
});
