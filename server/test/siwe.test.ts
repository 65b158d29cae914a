import { SIWE_SIGN_IN_STATEMENT } from "@common/siwe.ts";
import { eq } from "drizzle-orm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { describe, expect, it } from "vitest";
import { users, userWallets } from "../src/db/schema.ts";
import { createTestApp } from "./helpers.ts";

// The request rate limiter has its own tests; here it must not get in the way.
const generous = { limit: 100_000, windowMs: 60_000 };
const DOMAIN = "pay.example.test";
const app = await createTestApp({
  publicUrl: `https://${DOMAIN}`,
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
const chainId = app.chain?.chainId ?? 31337;

type Reply = Awaited<ReturnType<typeof app.inject>>;
const sessionCookie = (res: Reply) => {
  const cookie = res.cookies.find((c) => c.name === "cpxtb_session");
  return cookie?.value ? `cpxtb_session=${cookie.value}` : undefined;
};

async function nonce(): Promise<string> {
  const res = await app.inject({ method: "GET", url: "/api/siwe/nonce" });
  expect(res.statusCode).toBe(200);
  expect(res.headers["cache-control"]).toBe("no-store");
  return res.json().nonce;
}

type Account = ReturnType<typeof privateKeyToAccount>;
async function signed(
  account: Account,
  overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {},
  signer: Account = account,
) {
  const message = createSiweMessage({
    address: account.address,
    domain: DOMAIN,
    uri: `https://${DOMAIN}`,
    chainId,
    nonce: await nonce(),
    version: "1",
    statement: SIWE_SIGN_IN_STATEMENT,
    issuedAt: new Date(),
    ...overrides,
  });
  return { message, signature: await signer.signMessage({ message }) };
}

function verify(payload: { message: string; signature: string }, headers: Record<string, string> = {}) {
  return app.inject({ method: "POST", url: "/api/siwe/verify", payload, headers });
}

const newAccount = () => privateKeyToAccount(generatePrivateKey());

describe("Sign-In with Ethereum", () => {
  it("signs in, creating the account once, then reusing it", async () => {
    const account = newAccount();
    const first = await verify(await signed(account));
    expect(first.statusCode, first.body).toBe(200);
    const user = first.json();
    expect(user.username).toBe(`wallet_${account.address.slice(2, 10).toLowerCase()}`);
    expect(user.hasPassword).toBe(false);
    const cookie = sessionCookie(first)!;
    const me = await app.inject({ method: "GET", url: "/api/user", headers: { cookie } });
    expect(me.json().id).toBe(user.id);

    const again = await verify(await signed(account));
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(user.id);
    expect(sessionCookie(again)).not.toBe(cookie);
    const rows = await db.select().from(userWallets).where(eq(userWallets.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.address).toBe(account.address);
    expect(rows[0]!.provenBy).toBe("siwe_sign_in");
  });

  it("gives the new account a suffixed username when the derived one is taken", async () => {
    const account = newAccount();
    const base = `wallet_${account.address.slice(2, 10).toLowerCase()}`;
    const taken = await app.inject({
      method: "POST",
      url: "/api/register",
      payload: { username: base, password: "correct horse battery staple" },
    });
    expect(taken.statusCode).toBe(201);
    const res = await verify(await signed(account));
    expect(res.statusCode).toBe(200);
    expect(res.json().username).toBe(`${base}_2`);
  });

  it("refuses a message for another site even when the Host or X-Forwarded-Host header names it", async () => {
    const account = newAccount();
    const relays: Record<string, string>[] = [
      { host: "evil.example" },
      { "x-forwarded-host": "evil.example" },
    ];
    for (const headers of relays) {
      const res = await verify(
        await signed(account, { domain: "evil.example", uri: "https://evil.example" }),
        headers,
      );
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json().error.message).toMatch(/not for this site/);
    }
  });

  it("refuses a message whose uri is not the public origin", async () => {
    const account = newAccount();
    for (const uri of ["https://evil.example", `http://${DOMAIN}`, "https://pay.example.test.evil.example"]) {
      const res = await verify(await signed(account, { uri }));
      expect(res.statusCode, uri).toBe(401);
    }
  });

  it("a nonce works once: a second message with the same nonce is refused", async () => {
    const account = newAccount();
    const n = await nonce();
    const first = await verify(await signed(account, { nonce: n }));
    expect(first.statusCode).toBe(200);
    const second = await verify(await signed(account, { nonce: n, issuedAt: new Date(Date.now() + 1000) }));
    expect(second.statusCode).toBe(401);
    expect(second.json().error.message).toMatch(/already used or has expired/);
  });

  it("refuses a replayed message, also when both copies arrive at once", async () => {
    const account = newAccount();
    const payload = await signed(account);
    const [a, b] = await Promise.all([verify(payload), verify(payload)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 401]);
    const third = await verify(payload);
    expect(third.statusCode).toBe(401);
  });

  it("refuses a nonce the server never issued", async () => {
    const account = newAccount();
    const message = createSiweMessage({
      address: account.address,
      domain: DOMAIN,
      uri: `https://${DOMAIN}`,
      chainId,
      nonce: "madeUpNonce12345",
      version: "1",
      issuedAt: new Date(),
    });
    const res = await verify({ message, signature: await account.signMessage({ message }) });
    expect(res.statusCode).toBe(401);
  });

  it("refuses a message for another domain", async () => {
    const res = await verify(
      await signed(newAccount(), { domain: "evil.example", uri: "https://evil.example" }),
    );
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toMatch(/evil\.example, not for this site/);
  });

  it("refuses an unsupported chain, accepts mainnet and Sepolia", async () => {
    const wrong = await verify(await signed(newAccount(), { chainId: 137 }));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.message).toMatch(/Chain 137 is not accepted/);
    expect((await verify(await signed(newAccount(), { chainId: 1 }))).statusCode).toBe(200);
    expect((await verify(await signed(newAccount(), { chainId: 11155111 }))).statusCode).toBe(200);
  });

  it("refuses an expired message and one not valid yet", async () => {
    const expired = await verify(
      await signed(newAccount(), {
        issuedAt: new Date(Date.now() - 120_000),
        expirationTime: new Date(Date.now() - 60_000),
      }),
    );
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.message).toMatch(/expired/);
    const early = await verify(await signed(newAccount(), { notBefore: new Date(Date.now() + 60_000) }));
    expect(early.statusCode).toBe(401);
    expect(early.json().error.message).toMatch(/not valid yet/);
  });

  it("refuses a signature by another key, and the nonce stays usable", async () => {
    const account = newAccount();
    const n = await nonce();
    const forged = await signed(account, { nonce: n }, newAccount());
    const res = await verify(forged);
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toMatch(/signature does not match/);
    const garbage = await verify({ message: forged.message, signature: "0x1234" });
    expect(garbage.statusCode).toBe(401);
    // A failed attempt does not burn the owner's nonce.
    expect((await verify(await signed(account, { nonce: n }))).statusCode).toBe(200);
  });

  it("answers 400 for something that is not a SIWE message", async () => {
    const res = await verify({ message: "hello", signature: "0x00" });
    expect(res.statusCode).toBe(400);
  });
});

describe("linked wallets", () => {
  async function signInNew() {
    const account = newAccount();
    const res = await verify(await signed(account));
    expect(res.statusCode).toBe(200);
    return { account, cookie: sessionCookie(res)!, user: res.json() };
  }
  const link = (cookie: string, payload: { message: string; signature: string }) =>
    app.inject({ method: "POST", url: "/api/user/wallets", payload, headers: { cookie } });

  it("lists, links and unlinks wallets of the signed-in account", async () => {
    const { account, cookie, user } = await signInNew();
    const second = newAccount();
    const linked = await link(cookie, await signed(second));
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json().wallets.map((w: { address: string }) => w.address)).toEqual([
      account.address,
      second.address,
    ]);
    // Linking the same wallet again is harmless.
    expect((await link(cookie, await signed(second))).statusCode).toBe(200);
    // The linked wallet now signs in to the same account.
    const viaSecond = await verify(await signed(second));
    expect(viaSecond.json().id).toBe(user.id);

    const removed = await app.inject({
      method: "DELETE",
      url: `/api/user/wallets/${second.address.toLowerCase()}`,
      headers: { cookie },
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().wallets).toHaveLength(1);
    const list = await app.inject({ method: "GET", url: "/api/user/wallets", headers: { cookie } });
    expect(list.json().wallets[0].address).toBe(account.address);
    const missing = await app.inject({
      method: "DELETE",
      url: `/api/user/wallets/${second.address}`,
      headers: { cookie },
    });
    expect(missing.statusCode).toBe(404);
  });

  it("refuses to remove the only way into a passwordless account", async () => {
    const { account, cookie } = await signInNew();
    const res = await app.inject({
      method: "DELETE",
      url: `/api/user/wallets/${account.address}`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(409);
  });

  it("refuses a wallet that is already linked to another user with 409", async () => {
    const owner = await signInNew();
    const other = await signInNew();
    const res = await link(other.cookie, await signed(owner.account));
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(/already linked to another account/);
    const rows = await db.select().from(userWallets).where(eq(userWallets.userId, owner.user.id));
    expect(rows).toHaveLength(1);
  });

  it("needs a session", async () => {
    expect((await app.inject({ method: "GET", url: "/api/user/wallets" })).statusCode).toBe(401);
    const res = await app.inject({
      method: "POST",
      url: "/api/user/wallets",
      payload: await signed(newAccount()),
    });
    expect(res.statusCode).toBe(401);
  });

  it("deleting the account deletes its wallets", async () => {
    const { account, user } = await signInNew();
    await db.delete(users).where(eq(users.id, user.id));
    const rows = await db.select().from(userWallets).where(eq(userWallets.address, account.address));
    expect(rows).toHaveLength(0);
  });
});
