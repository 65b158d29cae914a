import { eq } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { loadSocialConfig } from "../src/config-social.ts";
import { managedWallets, socialAccounts } from "../src/db/schema.ts";
import { requestOrigin } from "../src/lib/public-origin.ts";
import { publicLocation, sameOriginPath } from "../src/modules/social-auth/redirect-url.ts";
import { createTestApp } from "./helpers.ts";

// One mock server plays every provider: OpenID Connect for Google and Apple, plain OAuth 2 for Facebook and X.
const mock = new OAuth2Server();
await mock.issuer.keys.generate("RS256");
await mock.start(0, "127.0.0.1");
const issuer = mock.issuer.url!;
afterAll(() => mock.stop());

/** Who the mock says signs in next; `nonce` overrides the id_token's nonce (a forged answer). */
let person: { sub: string; name: string; email: string; nonce?: string };
beforeEach(() => {
  person = { sub: `sub-${Math.random().toString(36).slice(2)}`, name: "Ada", email: "ada@example.com" };
});
mock.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
  token.payload.sub = person.sub;
  token.payload.name = person.name;
  token.payload.email = person.email;
  token.payload.email_verified = true;
  if (person.nonce) token.payload.nonce = person.nonce;
});
mock.service.on("beforeUserinfo", (response: { body: Record<string, unknown> }, req: { url?: string }) => {
  // Facebook's shape at one address, X's at another (both served by the mock's one user endpoint).
  response.body = req.url?.includes("x=1")
    ? { data: { id: person.sub, name: person.name, username: "ada" } }
    : { id: person.sub, name: person.name, email: person.email };
});
mock.service.on(
  "beforeResponse",
  (
    response: { body: Record<string, unknown> },
    req: { body?: Record<string, string>; headers?: Record<string, unknown> },
  ) => {
    // Real OAuth 2-only providers answer without an id_token.
    if (req.body?.client_id?.startsWith("oauth2-") || req.headers?.authorization)
      delete response.body.id_token;
  },
);

const social = loadSocialConfig(
  {
    GOOGLE_CLIENT_ID: "google-client",
    GOOGLE_CLIENT_SECRET: "google-secret",
    GOOGLE_ISSUER: issuer,
    APPLE_CLIENT_ID: "apple-client",
    APPLE_CLIENT_SECRET: "apple-secret",
    APPLE_ISSUER: issuer,
    FACEBOOK_CLIENT_ID: "oauth2-facebook",
    FACEBOOK_CLIENT_SECRET: "facebook-secret",
    FACEBOOK_AUTHORIZATION_URL: `${issuer}/authorize`,
    FACEBOOK_TOKEN_URL: `${issuer}/token`,
    FACEBOOK_USERINFO_URL: `${issuer}/userinfo`,
    TWITTER_CLIENT_ID: "oauth2-twitter",
    TWITTER_CLIENT_SECRET: "twitter-secret",
    TWITTER_AUTHORIZATION_URL: `${issuer}/authorize`,
    TWITTER_TOKEN_URL: `${issuer}/token`,
    TWITTER_USERINFO_URL: `${issuer}/userinfo?x=1`,
  },
  "test",
  { publicUrl: "http://pay.example.test", host: "127.0.0.1" },
);
expect(social.problems).toEqual([]);
const generous = { limit: 100_000, windowMs: 60_000 };
const ORIGIN = "http://pay.example.test";
const app = await createTestApp({
  publicUrl: ORIGIN,
  social: social.social,
  wallet: { ...social.wallet, masterSeed: `0x${"11".repeat(32)}` },
  rateLimits: {
    general: generous,
    auth: generous,
    contact: generous,
    claim: generous,
    public: generous,
    verify: generous,
    api: generous,
  },
});
const db = app.database.db;

type Reply = Awaited<ReturnType<typeof app.inject>>;
const cookieOf = (res: Reply, name: string) => res.cookies.find((c) => c.name === name)?.value;
const HOST = { host: "pay.example.test" };

/** Every spelling of another site (or a script) as a redirectUrl; each must be refused. */
const OFF_SITE = [
  "https://evil.example/steal",
  "//evil.example/x",
  "////evil.example",
  "/\\evil.example",
  "\\/evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/.//evil.example",
  "/..//evil.example",
  "/%2e%2e//evil.example",
  "/%2E%2E//evil.example",
  "/%2e//evil.example",
  "/a/..//evil.example",
  "/a/%2e%2e//evil.example",
  `${ORIGIN}/.//evil.example`,
  `${ORIGIN}//evil.example`,
  "javascript:alert(1)",
  "JAVASCRIPT:alert(1)",
  "data:text/html,hi",
  "https:evil.example",
  "http:evil.example",
  "http:/evil.example",
  "https://pay.example.test/",
  "http://pay.example.test:8080/",
  "http://pay.example.test.evil.example/",
  "http://user@evil.example",
  "http://pay.example.test@evil.example/",
  `${ORIGIN.replace("://", "://user:pass@")}/`,
  "%2F%2Fevil.example",
  "evil.example",
];

/** Starts a sign-in: our 302 to the provider, with the flow cookie. */
async function start(provider: string, query = "redirectUrl=%2Fmerchant", cookie = "") {
  const res = await app.inject({
    method: "GET",
    url: `/api/social-auth/${provider}?enableRealLogin=true&${query}`,
    headers: { ...HOST, cookie },
  });
  return { res, flow: cookieOf(res, "cpxtb_social_flow"), location: res.headers.location as string };
}

/** The provider's answer: the mock redirects straight back with code and state. */
async function authorize(location: string): Promise<URL> {
  const res = await fetch(location, { redirect: "manual" });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location")!);
}

async function callback(url: URL, flow: string | undefined, cookie = "") {
  const cookies = [flow ? `cpxtb_social_flow=${flow}` : "", cookie].filter(Boolean).join("; ");
  return app.inject({
    method: "GET",
    url: `${url.pathname}${url.search}`,
    headers: { ...HOST, cookie: cookies },
  });
}

async function signIn(provider: string) {
  const { flow, location } = await start(provider);
  const back = await authorize(location);
  const res = await callback(back, flow);
  expect(res.statusCode, res.body).toBe(303);
  const session = cookieOf(res, "cpxtb_session");
  return { res, cookie: `cpxtb_session=${session}` };
}

async function me(cookie: string) {
  return (await app.inject({ method: "GET", url: "/api/user", headers: { cookie } })).json() as {
    id: string;
    username: string;
    displayName: string | null;
  };
}

describe("provider redirect flow", () => {
  it("Google (OpenID Connect): state, PKCE and nonce go out; the callback signs in and redirects", async () => {
    const { res, flow, location } = await start("google");
    expect(res.statusCode).toBe(302);
    const url = new URL(location);
    expect(url.origin + url.pathname).toBe(`${issuer}/authorize`);
    expect(url.searchParams.get("state")).toBe(flow);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("nonce")).toBeTruthy();
    expect(url.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/api/social-auth/google/callback`);
    const back = await authorize(location);
    const done = await callback(back, flow);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`${ORIGIN}/merchant`);
    const user = await me(`cpxtb_session=${cookieOf(done, "cpxtb_session")}`);
    expect(user.username).toBe("google_ada");
    const [linked] = await db.select().from(socialAccounts).where(eq(socialAccounts.userId, user.id));
    expect(linked).toMatchObject({
      provider: "google",
      subject: person.sub,
      email: "ada@example.com",
      emailVerified: true,
    });
    const [wallet] = await db.select().from(managedWallets).where(eq(managedWallets.userId, user.id));
    expect(wallet?.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it("the same (provider, subject) signs into the same account again", async () => {
    const first = await signIn("google");
    const again = await signIn("google");
    expect((await me(again.cookie)).id).toBe((await me(first.cookie)).id);
  });

  it("the account greets with the provider's display name, not the generated username (issue 34)", async () => {
    person = { ...person, name: "Bea  Santos " };
    const first = await me((await signIn("google")).cookie);
    expect(first.username).toBe("google_bea_santos");
    expect(first.displayName).toBe("Bea Santos");
    // A new name at the provider is the greeting from the next sign-in on.
    person = { ...person, name: "Beatriz Santos" };
    const again = await me((await signIn("google")).cookie);
    expect(again).toMatchObject({
      id: first.id,
      username: "google_bea_santos",
      displayName: "Beatriz Santos",
    });
    // A password account has none.
    const res = await app.inject({
      method: "POST",
      url: "/api/register",
      payload: {
        username: `pw${Math.random().toString(36).slice(2, 10)}`,
        password: "correct horse battery staple 42",
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().displayName).toBeNull();
  });

  it("two people with the same display name stay two accounts", async () => {
    const a = await signIn("google");
    person = { ...person, sub: `${person.sub}-other` };
    const b = await signIn("google");
    const [ua, ub] = [await me(a.cookie), await me(b.cookie)];
    expect(ua.id).not.toBe(ub.id);
    expect(ub.username).not.toBe(ua.username);
  });

  it("Facebook and X (OAuth 2 with their user endpoints)", async () => {
    const fb = await signIn("facebook");
    const fbUser = await me(fb.cookie);
    expect(fbUser.username).toMatch(/^facebook_ada/);
    const [fbLink] = await db.select().from(socialAccounts).where(eq(socialAccounts.userId, fbUser.id));
    expect(fbLink).toMatchObject({ provider: "facebook", subject: person.sub, email: "ada@example.com" });
    const x = await signIn("twitter");
    const xUser = await me(x.cookie);
    const [xLink] = await db.select().from(socialAccounts).where(eq(socialAccounts.userId, xUser.id));
    expect(xLink).toMatchObject({ provider: "twitter", subject: person.sub, name: "Ada", email: null });
  });

  it("Apple answers with a form POST, which becomes our GET callback", async () => {
    const { flow, location } = await start("apple");
    const url = new URL(location);
    expect(url.searchParams.get("response_mode")).toBe("form_post");
    expect(url.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/social-auth/apple/callback`);
    const back = await authorize(location);
    const posted = await app.inject({
      method: "POST",
      url: "/social-auth/apple/callback",
      headers: {
        ...HOST,
        "content-type": "application/x-www-form-urlencoded",
        origin: "https://appleid.apple.com",
      },
      payload: new URLSearchParams({
        code: back.searchParams.get("code")!,
        state: back.searchParams.get("state")!,
        user: JSON.stringify({ name: { firstName: "Grace", lastName: "Hopper" } }),
      }).toString(),
    });
    expect(posted.statusCode).toBe(303);
    const done = await callback(new URL(posted.headers.location as string, ORIGIN), flow);
    expect(done.statusCode, done.body).toBe(303);
    expect((await me(`cpxtb_session=${cookieOf(done, "cpxtb_session")}`)).username).toMatch(/^apple_/);
  });
});

describe("refused answers", () => {
  it("a state that is not this browser's is refused", async () => {
    const mine = await start("google");
    const theirs = await start("google");
    const back = await authorize(theirs.location);
    const res = await callback(back, mine.flow);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe("BAD_REQUEST");
    expect(cookieOf(res, "cpxtb_session")).toBeUndefined();
  });

  it("a replayed callback (same code and state) is refused", async () => {
    const { flow, location } = await start("google");
    const back = await authorize(location);
    expect((await callback(back, flow)).statusCode).toBe(303);
    const replay = await callback(back, flow);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.message).toMatch(/already completed|expired/);
  });

  it("an id_token with the wrong nonce is refused", async () => {
    person.nonce = "not-the-nonce-we-sent";
    const { flow, location } = await start("google");
    const res = await callback(await authorize(location), flow);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe("BAD_REQUEST");
    expect(cookieOf(res, "cpxtb_session")).toBeUndefined();
  });

  it.each(OFF_SITE)("redirectUrl %j is refused with 400", async (target) => {
    const { res } = await start("google", `redirectUrl=${encodeURIComponent(target)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: "BAD_REQUEST" });
    const post = await app.inject({
      method: "POST",
      url: "/api/social-auth/google",
      headers: HOST,
      payload: { redirectUrl: target, enableWeb3Auth: false, enableRealLogin: false },
    });
    expect(post.statusCode).toBe(400);
  });

  it.each([
    "redirectUrl=%2F%5Cevil.example", // /\evil.example
    "redirectUrl=%5C%2Fevil.example", // \/evil.example
    "redirectUrl=%2F%09%2Fevil.example", // a tab the browser would drop
    "redirectUrl=%2F%0A%2Fevil.example",
    "redirectUrl=%2F.%2F%2Fevil.example",
    "redirectUrl=%2F%252e%252e%2F%2Fevil.example", // /%2e%2e//evil.example
    "redirectUrl=%252F%252Fevil.example", // double encoded: not a path
    "redirectUrl=https:%2F%2Fevil.example",
  ])("the query %s (encoded as a browser would send it) is refused with 400", async (query) => {
    const { res } = await start("google", query);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.message).toBe("redirectUrl must be an address on this site.");
  });

  it.each([
    [`${ORIGIN}/easy-payment?ref=abc`, "/easy-payment?ref=abc"],
    ["/pay/abc", "/pay/abc"],
    ["/a/../pay/abc#x", "/pay/abc#x"],
    // Encoded slashes and backslashes stay encoded: a path on this site, never another host.
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
    ["/%5cevil.example", "/%5cevil.example"],
    ["/%252F%252Fevil.example", "/%252F%252Fevil.example"],
  ])("redirectUrl %j comes back as an absolute address on this site", async (target, path) => {
    const { res, flow, location } = await start("google", `redirectUrl=${encodeURIComponent(target)}`);
    expect(res.statusCode, res.body).toBe(302);
    const done = await callback(await authorize(location), flow);
    expect(done.statusCode, done.body).toBe(303);
    expect(done.headers.location).toBe(`${ORIGIN}${path}`);
    expect(new URL(done.headers.location as string).origin).toBe(ORIGIN);
  });

  it("a stored path that normalises to another host never becomes the Location", () => {
    // A flow stored by an older instance, or any path built from one, is checked again on the way out.
    for (const path of ["//evil.example", "/.//evil.example", "/%2e%2e//evil.example", "https:evil.example"])
      expect(publicLocation(path, ORIGIN)).toBe(`${ORIGIN}/`);
    expect(publicLocation("/auth?twoFactor=required&next=%2Fpay", ORIGIN)).toBe(
      `${ORIGIN}/auth?twoFactor=required&next=%2Fpay`,
    );
    for (const raw of OFF_SITE) expect(() => sameOriginPath(raw, [ORIGIN])).toThrow(/address on this site/);
  });

  it("the Location keeps the loopback name the browser used (its cookie is there), never another Host", () => {
    const local = { publicUrl: "http://localhost:5000", publicUrlFromListen: true };
    const at = (host: string) => publicLocation("/pay", requestOrigin(local, { host } as FastifyRequest));
    expect(at("127.0.0.1:5000")).toBe("http://127.0.0.1:5000/pay");
    expect(at("localhost:5000")).toBe("http://localhost:5000/pay");
    expect(at("evil.example")).toBe("http://localhost:5000/pay");
    const deployed = { publicUrl: ORIGIN, publicUrlFromListen: false };
    expect(
      publicLocation("/pay", requestOrigin(deployed, { host: "127.0.0.1:5000" } as FastifyRequest)),
    ).toBe(`${ORIGIN}/pay`);
  });

  it("an unknown provider is 404 in the error shape", async () => {
    const res = await app.inject({ method: "GET", url: "/api/social-auth/myspace?enableRealLogin=true" });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe("NOT_FOUND");
    const post = await app.inject({ method: "POST", url: "/api/social-auth/myspace", payload: {} });
    expect(post.statusCode).toBe(404);
  });
});

describe("basic flow, link and unlink", () => {
  it("POST /api/social-auth/{provider}: 401 with the URL when not signed in, the profile when signed in", async () => {
    const anon = await app.inject({
      method: "POST",
      url: "/api/social-auth/google",
      headers: HOST,
      payload: { redirectUrl: "/auth" },
    });
    expect(anon.statusCode).toBe(401);
    expect(anon.json().error.details.url).toBe(
      "/api/social-auth/google?enableRealLogin=true&redirectUrl=%2Fauth",
    );
    const { cookie } = await signIn("google");
    const res = await app.inject({
      method: "POST",
      url: "/api/social-auth/google",
      headers: { ...HOST, cookie },
      payload: { redirectUrl: `${ORIGIN}/auth`, enableWeb3Auth: false, enableRealLogin: true },
    });
    expect(res.statusCode, res.body).toBe(503); // no chain in this file: the balance cannot be read
    const logout = await app.inject({ method: "POST", url: "/api/social-auth/logout", headers: { cookie } });
    expect(logout.statusCode).toBe(200);
    expect((await app.inject({ method: "GET", url: "/api/user", headers: { cookie } })).statusCode).toBe(401);
  });

  it("links another provider to a signed-in account and refuses to unlink the last way in", async () => {
    const { cookie } = await signIn("google");
    const user = await me(cookie);
    const linkStart = await start("facebook", "redirectUrl=%2Fsettings&link=true", cookie);
    expect(linkStart.res.statusCode).toBe(302);
    person = { ...person, sub: `${person.sub}-fb` };
    const done = await callback(await authorize(linkStart.location), linkStart.flow, cookie);
    expect(done.statusCode, done.body).toBe(303);
    expect(done.headers.location).toBe(`${ORIGIN}/settings?socialLinked=facebook`);
    const list = await app.inject({ method: "GET", url: "/api/user/social-accounts", headers: { cookie } });
    expect(list.json().accounts.map((a: { provider: string }) => a.provider)).toEqual(["google", "facebook"]);
    // Signing in with the linked Facebook identity lands in the same account.
    expect((await me((await signIn("facebook")).cookie)).id).toBe(user.id);
    const unlink = await app.inject({
      method: "DELETE",
      url: "/api/user/social-accounts/google",
      headers: { cookie },
    });
    expect(unlink.statusCode).toBe(200);
    const last = await app.inject({
      method: "DELETE",
      url: "/api/user/social-accounts/facebook",
      headers: { cookie },
    });
    expect(last.statusCode).toBe(409);
    expect(last.json().error.code).toBe("CONFLICT");
    expect(last.json().error.details).toEqual({ reason: "last_way_in", provider: "facebook" });
    const gone = await app.inject({
      method: "DELETE",
      url: "/api/user/social-accounts/google",
      headers: { cookie },
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toMatchObject({
      message: "No Google account is linked.",
      details: { reason: "not_linked", provider: "google" },
    });
  });

  it("an identity linked to another account cannot be linked again", async () => {
    await signIn("google");
    const other = await signIn("facebook");
    const linkStart = await start("google", "redirectUrl=%2Fsettings&link=true", other.cookie);
    const res = await callback(await authorize(linkStart.location), linkStart.flow, other.cookie);
    expect(res.statusCode).toBe(409);
  });
});

describe("a refused callback in the browser goes back to where the sign-in started", () => {
  const HTML = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
  const back = (url: string, flow: string | undefined, accept?: string, cookie = "") =>
    app.inject({
      method: "GET",
      url,
      headers: {
        ...HOST,
        ...(accept ? { accept } : {}),
        cookie: [flow ? `cpxtb_social_flow=${flow}` : "", cookie].filter(Boolean).join("; "),
      },
    });
  const onSite = (location: unknown) => {
    expect(typeof location).toBe("string");
    expect(new URL(location as string).origin).toBe(ORIGIN);
  };

  it("cancelled at the provider: 303 to the start page (its query kept), told why and by whom", async () => {
    const { flow } = await start("google", "redirectUrl=%2Fpay%2Fpay_1%3Fref%3Dx");
    const res = await back(`/api/social-auth/google/callback?error=access_denied&state=${flow}`, flow, HTML);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(
      `${ORIGIN}/pay/pay_1?ref=x&socialLogin=cancelled&socialProvider=google`,
    );
    expect(cookieOf(res, "cpxtb_session")).toBeUndefined();
  });

  it("an unknown, expired or used flow: 303 to /auth with socialLogin=expired", async () => {
    const unknown = await back("/api/social-auth/google/callback?code=x&state=nobody", "nobody", HTML);
    expect(unknown.statusCode).toBe(303);
    expect(unknown.headers.location).toBe(`${ORIGIN}/auth?socialLogin=expired&socialProvider=google`);
    const noState = await back("/api/social-auth/google/callback?error=access_denied", undefined, HTML);
    expect(noState.headers.location).toBe(`${ORIGIN}/auth?socialLogin=expired&socialProvider=google`);
    const { flow, location } = await start("google");
    const answer = await authorize(location);
    expect((await callback(answer, flow)).statusCode).toBe(303);
    const replay = await back(`${answer.pathname}${answer.search}`, flow, HTML);
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toBe(`${ORIGIN}/auth?socialLogin=expired&socialProvider=google`);
  });

  it("a refusal once the flow is known names its reason: failed, linkedElsewhere", async () => {
    person.nonce = "not-the-nonce-we-sent";
    const forged = await start("google");
    const answer = await authorize(forged.location);
    const res = await back(`${answer.pathname}${answer.search}`, forged.flow, HTML);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${ORIGIN}/merchant?socialLogin=failed&socialProvider=google`);
    person.nonce = undefined;

    await signIn("google");
    const other = await signIn("facebook");
    const linkStart = await start("google", "redirectUrl=%2Fsettings&link=true", other.cookie);
    const linkAnswer = await authorize(linkStart.location);
    const linked = await back(
      `${linkAnswer.pathname}${linkAnswer.search}`,
      linkStart.flow,
      HTML,
      other.cookie,
    );
    expect(linked.statusCode).toBe(303);
    expect(linked.headers.location).toBe(
      `${ORIGIN}/settings?socialLogin=linkedElsewhere&socialProvider=google`,
    );
  });

  it("without text/html (a script, or no Accept): the same JSON error as before", async () => {
    for (const accept of ["application/json", undefined]) {
      const res = await back("/api/social-auth/google/callback?code=x&state=nobody", "nobody", accept);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe("BAD_REQUEST");
      expect(res.headers.location).toBeUndefined();
    }
    // A cancel with a known flow was already a redirect; it now says by whom too.
    const { flow } = await start("google");
    const res = await back(`/api/social-auth/google/callback?error=access_denied&state=${flow}`, flow);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${ORIGIN}/merchant?socialLogin=cancelled&socialProvider=google`);
  });

  it("never leaves the site, whatever the Host says", async () => {
    const res = await app.inject({
      method: "GET",
      url: "/api/social-auth/google/callback?error=access_denied&state=nobody",
      headers: { host: "evil.example", accept: HTML, cookie: "cpxtb_social_flow=nobody" },
    });
    expect(res.statusCode).toBe(303);
    onSite(res.headers.location);
    for (const path of ["//evil.example/x", "/.//evil.example", "https://evil.example/"]) {
      const { res: refused } = await start("google", `redirectUrl=${encodeURIComponent(path)}`);
      expect(refused.statusCode).toBe(400);
    }
  });
});

// Built before the tests run: a database each, which takes long on a busy machine.
const LOCAL = { publicUrl: "http://localhost:5000", host: "127.0.0.1" };
const bare = loadSocialConfig({ SOCIAL_DEV_LOGIN: "true" }, "development", {
  publicUrl: ORIGIN,
  host: "127.0.0.1",
});
const dev = await createTestApp({
  publicUrl: ORIGIN,
  social: bare.social,
  wallet: { ...bare.wallet, masterSeed: `0x${"22".repeat(32)}` },
});
const prod = loadSocialConfig({ RPC_URL: "https://rpc.example" }, "production", {
  publicUrl: "https://pay.example.com",
  host: "0.0.0.0",
});
const app2 = await createTestApp({ social: prod.social, wallet: prod.wallet });

describe("development sign-in page", () => {
  it("stands in for a provider without credentials outside production, with the whole flow", async () => {
    const providers = await dev.inject({ method: "GET", url: "/api/social-auth/providers" });
    expect(providers.json().providers.map((p: { mode: string }) => p.mode)).toEqual([
      "development",
      "development",
      "development",
      "development",
    ]);
    const begin = await dev.inject({
      method: "GET",
      url: "/api/social-auth/google?redirectUrl=%2Feasy-payment",
      headers: HOST,
    });
    expect(begin.statusCode).toBe(302);
    const page = await dev.inject({ method: "GET", url: begin.headers.location as string, headers: HOST });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(page.body).toContain("Development only");
    expect(page.body).toContain('<label for="name">Name</label>');
    expect(page.body).toContain('<label for="email">Email</label>');
    expect(page.body).toContain("Continue");
    const go = async (name: string, email: string) => {
      const b = await dev.inject({
        method: "GET",
        url: "/api/social-auth/google?redirectUrl=%2Feasy-payment",
        headers: HOST,
      });
      const st = new URL(b.headers.location as string, ORIGIN).searchParams.get("state")!;
      const auth = await dev.inject({
        method: "GET",
        url: `/api/social-auth/google/dev/authorize?state=${st}&name=${encodeURIComponent(name)}&email=${encodeURIComponent(email)}`,
        headers: HOST,
      });
      expect(auth.statusCode).toBe(302);
      const done = await dev.inject({
        method: "GET",
        url: auth.headers.location as string,
        headers: { ...HOST, cookie: `cpxtb_social_flow=${cookieOf(b, "cpxtb_social_flow")}` },
      });
      expect(done.statusCode, done.body).toBe(303);
      expect(done.headers.location).toBe(`${ORIGIN}/easy-payment`);
      const user = await dev.inject({
        method: "GET",
        url: "/api/user",
        headers: { cookie: `cpxtb_session=${cookieOf(done, "cpxtb_session")}` },
      });
      return user.json().id as string;
    };
    const sam1 = await go("Sam", "sam@example.com");
    const sam2 = await go("Sam", "other-sam@example.com");
    const sam1Again = await go("Samuel", "SAM@example.com");
    expect(sam1).not.toBe(sam2);
    expect(sam1Again).toBe(sam1);
  });

  it("its Cancel goes back to the callback as a provider's refusal does, and so to the start page", async () => {
    // Another address: the whole flow above has used this one's share of sign-in requests.
    const remoteAddress = "203.0.113.9";
    const begin = await dev.inject({
      method: "GET",
      url: "/api/social-auth/google?redirectUrl=%2Feasy-payment",
      headers: HOST,
      remoteAddress,
    });
    const state = new URL(begin.headers.location as string, ORIGIN).searchParams.get("state")!;
    const page = await dev.inject({
      method: "GET",
      url: begin.headers.location as string,
      headers: HOST,
      remoteAddress,
    });
    const href = page.body
      .match(/<a class="cancel" href="([^"]+)">Cancel<\/a>/)?.[1]
      ?.replaceAll("&amp;", "&");
    expect(href).toBe(
      `/api/social-auth/google/callback?error=access_denied&state=${encodeURIComponent(state)}`,
    );
    const cancelled = await dev.inject({
      method: "GET",
      url: href!,
      headers: {
        ...HOST,
        accept: "text/html",
        cookie: `cpxtb_social_flow=${cookieOf(begin, "cpxtb_social_flow")}`,
      },
      remoteAddress,
    });
    expect(cancelled.statusCode).toBe(303);
    expect(cancelled.headers.location).toBe(
      `${ORIGIN}/easy-payment?socialLogin=cancelled&socialProvider=google`,
    );
    expect(cookieOf(cancelled, "cpxtb_session")).toBeUndefined();
  });

  it("production without credentials says the provider is not configured", async () => {
    // `npm start` on a fresh machine (production build, embedded chain, loopback) is a development setup: it keeps
    // the page.
    expect(loadSocialConfig({}, "production", LOCAL).social.developmentPage).toBe(true);
    expect(loadSocialConfig({ RPC_URL: "https://rpc.example" }, "production", LOCAL).problems).toEqual([
      "WALLET_MASTER_SEED: required in production (managed wallets hold real funds)",
    ]);
    const providers = await app2.inject({ method: "GET", url: "/api/social-auth/providers" });
    expect(providers.json().providers[0]).toMatchObject({ provider: "google", mode: "unavailable" });
    const res = await app2.inject({ method: "GET", url: "/api/social-auth/google?redirectUrl=%2F" });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.message).toBe("Google sign-in is not configured on this server.");
    expect(
      (await app2.inject({ method: "GET", url: "/api/social-auth/google/dev?state=x" })).statusCode,
    ).toBe(404);
  });

  it("a browser sent to a start that cannot go on goes back to its page told why, never to JSON (issue 37)", async () => {
    const html = { accept: "text/html,application/xhtml+xml" };
    const go = (url: string) => app2.inject({ method: "GET", url, headers: html });
    const unavailable = await go(
      "/api/social-auth/google?enableRealLogin=true&redirectUrl=%2Fpay%2Fpay_1%3Fref%3Dx",
    );
    expect(unavailable.statusCode).toBe(303);
    expect(new URL(unavailable.headers.location as string).pathname).toBe("/pay/pay_1");
    expect(new URL(unavailable.headers.location as string).search).toBe(
      "?ref=x&socialLogin=unreachable&socialProvider=google",
    );
    // An address off this site is not followed: /auth says it.
    const elsewhere = await go("/api/social-auth/google?redirectUrl=https%3A%2F%2Fevil.test%2F");
    expect(elsewhere.statusCode).toBe(303);
    expect(new URL(elsewhere.headers.location as string).pathname).toBe("/auth");
    // Linking without a session, on a configured provider.
    const link = await app.inject({
      method: "GET",
      url: "/api/social-auth/google?link=true&redirectUrl=%2Fprofile",
      headers: { ...HOST, ...html },
    });
    expect(link.statusCode).toBe(303);
    expect(link.headers.location).toBe(`${ORIGIN}/profile?socialLogin=failed&socialProvider=google`);
  });
});

describe("the basic login window's end (/auth/social-complete)", () => {
  it("is a page of its own in its reader's language, with the script that tells the opening page", async () => {
    const page = (headers: Record<string, string>) =>
      app.inject({ method: "GET", url: "/auth/social-complete?provider=google", headers });
    const arabic = await page({ "accept-language": "ar-EG,ar;q=0.9,en;q=0.5" });
    expect(arabic.statusCode).toBe(200);
    expect(arabic.headers["content-type"]).toMatch(/^text\/html/);
    expect(arabic.headers["content-language"]).toBe("ar");
    expect(arabic.headers.vary).toMatch(/Accept-Language/);
    expect(arabic.headers["cache-control"]).toBe("no-store");
    expect(arabic.body).toContain('<html lang="ar" dir="rtl">');
    expect(arabic.body).toContain("اكتمل تسجيل الدخول. يمكنك إغلاق هذه النافذة الآن.");
    expect(arabic.body).toContain('<script src="/social-complete.js" defer></script>');
    // The visitor's chosen language (the language menu's cookie) before the browser's.
    const chosen = await page({ "accept-language": "ar", cookie: "cpxtb_lang=de" });
    expect(chosen.body).toContain('<html lang="de" dir="ltr">');
    expect(chosen.body).toContain("Anmeldung abgeschlossen. Sie können dieses Fenster jetzt schließen.");
    const english = await page({});
    expect(english.body).toContain("Sign-in finished. You can close this window.");
    // Its own script only: the CSP's script-src allows this site's files, never an inline script.
    expect(english.body).not.toMatch(/<script>(?!<\/script>)/);
  });
});
