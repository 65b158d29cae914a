import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, apiRequest, getQueryFn } from "./api-client";

function mockFetch(response: Response) {
  const fetchMock = vi.fn().mockResolvedValue(response);
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const queryContext = (key: string) =>
  ({ queryKey: [key], signal: new AbortController().signal, meta: undefined }) as never;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("apiRequest", () => {
  it("sends JSON with credentials when there is a body", async () => {
    const fetchMock = mockFetch(new Response("{}", { status: 200 }));
    await apiRequest("POST", "/api/login", { username: "ada" });
    expect(fetchMock).toHaveBeenCalledWith("/api/login", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: "ada" }),
      credentials: "include",
    });
  });

  it("sends no content type and no body without data", async () => {
    const fetchMock = mockFetch(new Response(null, { status: 204 }));
    await apiRequest("POST", "/api/logout");
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(init.headers).toEqual({});
    expect(init.body).toBeUndefined();
    expect(init.credentials).toBe("include");
  });

  it("throws '<status>: <body text>' and keeps the parsed body", async () => {
    const body = { error: { code: "RATE_LIMITED", message: "Slow down" }, challenge: { token: "t" } };
    mockFetch(new Response(JSON.stringify(body), { status: 429, statusText: "Too Many Requests" }));
    const error = await apiRequest("GET", "/api/x").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(`429: ${JSON.stringify(body)}`);
    expect((error as ApiError).status).toBe(429);
    expect((error as ApiError).body).toEqual(body);
  });

  it("falls back to the status text when the body is empty", async () => {
    mockFetch(new Response("", { status: 503, statusText: "Service Unavailable" }));
    await expect(apiRequest("GET", "/api/x")).rejects.toThrow("503: Service Unavailable");
  });

  it("keeps a non-JSON body as text only", async () => {
    mockFetch(new Response("plain failure", { status: 500, statusText: "Internal Server Error" }));
    const error = (await apiRequest("GET", "/api/x").catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe("500: plain failure");
    expect(error.body).toBeUndefined();
  });
});

describe("getQueryFn", () => {
  it("GETs the first element of the query key with credentials and parses JSON", async () => {
    const fetchMock = mockFetch(new Response(JSON.stringify({ username: "ada" }), { status: 200 }));
    const data = await getQueryFn({ on401: "throw" })(queryContext("/api/user"));
    expect(data).toEqual({ username: "ada" });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe("/api/user");
    expect(init.credentials).toBe("include");
  });

  it("returns null on 401 in returnNull mode", async () => {
    mockFetch(new Response('{"error":{}}', { status: 401, statusText: "Unauthorized" }));
    await expect(getQueryFn({ on401: "returnNull" })(queryContext("/api/user"))).resolves.toBeNull();
  });

  it("throws on 401 in throw mode", async () => {
    mockFetch(new Response("", { status: 401, statusText: "Unauthorized" }));
    await expect(getQueryFn({ on401: "throw" })(queryContext("/api/user"))).rejects.toThrow(
      "401: Unauthorized",
    );
  });

  it("throws on other failures even in returnNull mode", async () => {
    mockFetch(new Response("nope", { status: 404 }));
    await expect(getQueryFn({ on401: "returnNull" })(queryContext("/api/user"))).rejects.toThrow("404: nope");
  });
});

describe("answers the page asked for early (index.html's inline script)", () => {
  afterEach(() => {
    window.__cpxtbEarly = undefined;
  });

  it("uses an early GET once, then asks the server again", async () => {
    const fetchMock = mockFetch(new Response(JSON.stringify({ id: "later" }), { status: 200 }));
    window.__cpxtbEarly = {
      at: Date.now(),
      responses: { "/api/user": Promise.resolve(new Response(JSON.stringify({ id: "early" }))) },
    };
    const load = getQueryFn<{ id: string }>({ on401: "returnNull" });
    expect(await load(queryContext("/api/user"))).toEqual({ id: "early" });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(await load(queryContext("/api/user"))).toEqual({ id: "later" });
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it("does not use an answer older than 10 s, nor any after a change was sent", async () => {
    const fetchMock = mockFetch(new Response("null", { status: 200 }));
    const early = () => Promise.resolve(new Response(JSON.stringify({ id: "early" })));
    window.__cpxtbEarly = { at: Date.now() - 10_001, responses: { "/api/user": early() } };
    const load = getQueryFn<{ id: string } | null>({ on401: "returnNull" });
    expect(await load(queryContext("/api/user"))).toBeNull();
    window.__cpxtbEarly = { at: Date.now(), responses: { "/api/user": early() } };
    fetchMock.mockResolvedValueOnce(new Response("{}", { status: 200 }));
    await apiRequest("POST", "/api/logout");
    fetchMock.mockResolvedValueOnce(new Response("null", { status: 200 }));
    expect(await load(queryContext("/api/user"))).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });
});
