/** React marks every DOM node it has hydrated or rendered with its props: before that, a click finds no handler. */
const isLive = (node: Element) => Object.keys(node).some((key) => key.startsWith("__reactProps$"));

/**
 * The button a held tap belongs to now: the same node, or, when React rendered that part again instead of
 * hydrating it (an update came during hydration), the one button that has the same id, test id or label.
 */
function counterpart(root: HTMLElement, held: HTMLButtonElement): HTMLButtonElement | null {
  if (held.isConnected) return held;
  const same = (a: string | null, b: string | null) => a !== null && a !== "" && a === b;
  const label = (b: HTMLButtonElement) => b.getAttribute("aria-label") ?? b.textContent?.trim() ?? null;
  const matches = [...root.querySelectorAll("button")].filter(
    (b) =>
      same(b.id, held.id) ||
      same(b.getAttribute("data-testid"), held.getAttribute("data-testid")) ||
      same(label(b), label(held)),
  );
  return matches.length === 1 ? matches[0]! : null;
}

/**
 * Clicks each held button once it is live (parts of the page can hydrate after the root's first commit), for at
 * most 10 s; a button that is disabled by then (an action under way) is not clicked.
 */
export function replayHeldClicks(root: HTMLElement, held: HTMLButtonElement[]) {
  const until = performance.now() + 10_000;
  let pending = held;
  const tick = () => {
    pending = pending.filter((button) => {
      const target = counterpart(root, button);
      if (!target || !isLive(target)) return true;
      if (!target.disabled) target.click();
      return false;
    });
    if (pending.length > 0 && performance.now() < until) setTimeout(tick, 50);
  };
  tick();
}
