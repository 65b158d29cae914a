import { nextTask } from "./next-task";

/**
 * One-time costs that the first render would otherwise pay inside one task: the browser's first `Intl` formatters
 * (ICU's locale data; its shared part is paid by a worker, public/intl-warm-up.js) and tailwind-merge's
 * configuration and class map, measured in the long tasks after the first paint by `bench/lighthouse.mjs --trace`
 * (issue 39). Each is paid
 * here in a task of its own, before the page renders or hydrates, while the browser can still paint and take a tap
 * in between. A page's loader runs them (app/lazy-pages.ts, through the data layer, so none of this is in the
 * shell): before hydration on a server-rendered page, before the first render of a page opened later.
 */
const pending: (() => void)[] = [];

/** Runs `work` in a task of its own at the next `runWarmUps` (a module registers its own when it is evaluated). */
export function warmUpLater(work: () => void): void {
  pending.push(work);
}

/** Runs the registered work, one piece per task; resolves when none is left. */
export async function runWarmUps(): Promise<void> {
  for (let work = pending.shift(); work; work = pending.shift()) {
    await nextTask();
    try {
      work();
    } catch {
      // A warm-up only moves work earlier: the render that needs it does it again and reports what fails.
    }
  }
}
