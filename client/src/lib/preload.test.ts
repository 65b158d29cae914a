import { afterEach, describe, expect, it } from "vitest";
import { serverPrefetches } from "./preload";

describe("serverPrefetches", () => {
  afterEach(() => {
    document.head.innerHTML = "";
    document.body.innerHTML = "";
  });

  it("finds the server's prefetch links in the head, or still waiting in the after-paint template", () => {
    expect(serverPrefetches("home")).toBe(false);
    document.body.innerHTML =
      '<template id="after-paint"><script type="module" src="/assets/index.js"></script>' +
      '<link rel="prefetch" href="/assets/merchant.js" data-prefetch="home" /></template>';
    expect(serverPrefetches("home")).toBe(true);
    expect(serverPrefetches("side-menu")).toBe(false);
    document.head.innerHTML = '<link rel="prefetch" href="/assets/panel.js" data-prefetch="side-menu" />';
    expect(serverPrefetches("side-menu")).toBe(true);
  });
});
