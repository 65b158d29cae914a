import { CLIENT_ROUTES, isClientRoute } from "@common/client-routes";
import { describe, expect, it } from "vitest";
import routerSource from "./router.tsx?raw";

describe("the server's copy of the route table", () => {
  it("lists exactly the router's paths, in its order", () => {
    const paths = [...routerSource.matchAll(/<Route path="([^"]+)"/g)].map((m) => m[1]);
    expect(paths).toEqual([...CLIENT_ROUTES]);
  });

  it("matches like the router: one segment per parameter, an optional trailing slash, any case", () => {
    for (const path of ["/", "/blog/a-post", "/pay/ABC123", "/payment/", "/Merchant"]) {
      expect(isClientRoute(path), path).toBe(true);
    }
    for (const path of ["/pay", "/pay/a/b", "/blog/a/b", "/merchants", "/nope", "//"]) {
      expect(isClientRoute(path), path).toBe(false);
    }
  });
});
