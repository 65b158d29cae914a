import type { Page, Request } from "@playwright/test";
import { expect } from "../fixtures";

let bindings = 0;

/**
 * Records, from inside the page, whether `text` was ever shown on it. A state the page holds for a fixed time (the
 * 1.5 s "Redirecting..." before it leaves) can be over before a busy test process gets to look, and then there is
 * no page left to look at; the page itself sees every frame of it. Returns a read of the record (the page's call
 * reaches the test asynchronously: poll it).
 */
export async function recordShown(page: Page, text: string): Promise<() => boolean> {
  let shown = false;
  const binding = `__e2eShown${++bindings}`;
  await page.exposeBinding(binding, () => {
    shown = true;
  });
  await page.evaluate(
    ([name, wanted]) => {
      const report = (window as unknown as Record<string, () => void>)[name]!;
      // biome-ignore lint/performance/useDomNodeTextContent: what is shown (laid out), not what the tree holds
      const seen = () => document.body.innerText.includes(wanted);
      if (seen()) return report();
      const observer = new MutationObserver(() => {
        if (!seen()) return;
        observer.disconnect();
        report();
      });
      observer.observe(document.body, {
        childList: true,
        subtree: true,
        characterData: true,
        attributes: true,
      });
    },
    [binding, text] as const,
  );
  return () => shown;
}

/**
 * The development provider page stands in for Google on a server without credentials (real login, the default).
 * Spec section 4: a visible "Redirecting..." and the browser leaves 1.5 s after the click; back on our page the
 * login completes and the page reloads 0.5 s later (two loads after "Continue": the return and the reload).
 */
export async function signInOnDevPage(page: Page, name: string, email: string) {
  const leaves = page.waitForRequest(
    (r) => r.isNavigationRequest() && /\/api\/social-auth\/google\?/.test(r.url()),
  );
  const redirecting = await recordShown(page, "Redirecting...");
  const clicked = Date.now();
  await page.getByRole("button", { name: "Continue with Google", exact: true }).click();
  await leaves;
  await expect.poll(redirecting, { message: '"Redirecting..." was shown before leaving' }).toBe(true);
  expect(Date.now() - clicked).toBeGreaterThanOrEqual(1500);
  await expect(page.getByRole("heading", { name: "Sign in with Google (development)" })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByText("Development only")).toBeVisible();
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  let loads = 0;
  const onLoad = () => loads++;
  page.on("load", onLoad);
  const navigations: Request[] = [];
  const onRequest = (request: Request) => {
    if (request.isNavigationRequest()) navigations.push(request);
  };
  page.on("request", onRequest);
  const answered = page.waitForResponse(
    (r) => r.request().method() === "POST" && r.url().endsWith("/api/social-auth/google"),
    { timeout: 30_000 },
  );
  await page.getByRole("button", { name: "Continue" }).click();
  const answer = await answered;
  expect(answer.status()).toBe(200);
  await answer.finished();
  // Timed on the browser's own clock (request timings), not by when this test hears of each event: a busy machine
  // delays the test, never the page's 0.5 s. Measured from the answer's first byte: the page cannot start its 0.5 s
  // before that, and on a busy machine the network process records the last byte late (462 ms measured from it
  // once, at load 19, for a page that waited its 500).
  const { startTime, responseStart } = answer.request().timing();
  const answerStart = startTime + responseStart;
  await expect
    .poll(() => navigations.some((r) => r.timing().startTime >= answerStart), { timeout: 30_000 })
    .toBe(true);
  const reloaded = navigations.find((r) => r.timing().startTime >= answerStart)!;
  page.off("request", onRequest);
  // (495: the two timestamps come from two processes, each rounded.)
  expect(reloaded.timing().startTime - answerStart).toBeGreaterThanOrEqual(495);
  expect(reloaded.url()).toBe(page.url());
  await expect.poll(() => loads, { timeout: 30_000 }).toBe(2);
  page.off("load", onLoad);
}

/**
 * The development stand-in for Google after its button was clicked (in whichever language): its page, back to
 * `back` on our side, which reloads once (two loads after "Continue": the return and the reload).
 */
export async function continueOnDevPage(page: Page, name: string, email: string, back: RegExp) {
  await expect(page.getByRole("heading", { name: "Sign in with Google (development)" })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  let loads = 0;
  const onLoad = () => loads++;
  page.on("load", onLoad);
  const answered = page.waitForResponse(
    (r) => r.request().method() === "POST" && r.url().endsWith("/api/social-auth/google"),
    { timeout: 30_000 },
  );
  await page.getByRole("button", { name: "Continue" }).click();
  expect((await answered).status()).toBe(200);
  await expect(page).toHaveURL(back, { timeout: 30_000 });
  await expect.poll(() => loads, { timeout: 30_000 }).toBe(2);
  page.off("load", onLoad);
}
