import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * axe's colour-contrast rule alone, over the page as it is now (errors shown): WCAG AA for every text and its
 * background. What a person reads is the page at rest: nothing fading in (a toast that mounts after an inline
 * error starts its own animation later, so wait until none is running rather than for the ones running now).
 */
export async function expectContrast(page: Page, where: string) {
  await expect
    .poll(() =>
      page.evaluate(async () => {
        await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined)));
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        return document.getAnimations().filter((a) => a.playState === "running").length;
      }),
    )
    .toBe(0);
  const results = await new AxeBuilder({ page }).withRules(["color-contrast"]).analyze();
  const problems = results.violations.flatMap((v) =>
    v.nodes.slice(0, 4).map((n) => `${n.target.join(" ")}: ${n.failureSummary?.split("\n").pop()}`),
  );
  expect(problems, `contrast on ${where}`).toEqual([]);
}
