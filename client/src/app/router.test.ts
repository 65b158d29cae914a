import { CHECKOUT_MESSAGE_AREAS, FRAMED_CHECKOUT_MESSAGE_AREAS } from "@common/checkout-areas";
import { CLIENT_ROUTES, isClientRoute } from "@common/client-routes";
import { describe, expect, it } from "vitest";
import * as pages from "./lazy-pages";
import { pageFor, ROUTES } from "./router";

describe("the server's copy of the route table", () => {
  it("lists exactly the router's paths, in its order", () => {
    expect(ROUTES.map(([path]) => path)).toEqual([...CLIENT_ROUTES]);
  });

  it("gives main.tsx the page the router shows, so it can load it before the first render", () => {
    expect(pageFor("/")).toBe(pages.HomePage);
    expect(pageFor("/merchant")).toBe(pages.MerchantDashboardPage);
    expect(pageFor("/Merchant/")).toBe(pages.MerchantDashboardPage);
    expect(pageFor("/pay/ABC123")).toBe(pages.PayPage);
    expect(pageFor("/settings")).toBe(pages.ProfilePage);
    expect(pageFor("/pay/a/b")).toBe(pages.NotFoundPage);
    expect(pageFor("/nope")).toBe(pages.NotFoundPage);
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

describe("the server's copy of the checkout's words", () => {
  it("preloads the words each server-rendered checkout loads (decision 036)", () => {
    expect(pages.PayPage.areas).toEqual(CHECKOUT_MESSAGE_AREAS);
    expect(pages.LinkPage.areas).toEqual(CHECKOUT_MESSAGE_AREAS);
    expect(pages.EasyPaymentPage.areas).toEqual(FRAMED_CHECKOUT_MESSAGE_AREAS);
  });
});
