/**
 * The browser's Back and Forward buttons, heard before the router: this listener is added when the app's code
 * starts, ahead of wouter's (added when it first renders), so a half-filled form can put its page back before
 * the router leaves it (hooks/use-unsaved-changes.tsx). Listeners on `window` run in the order they were added,
 * whatever their phase, and the router's re-render can unmount the form between two of them.
 */
let guard: (() => void) | null = null;

export function setBackGuard(next: (() => void) | null): void {
  guard = next;
}

if (typeof window !== "undefined") window.addEventListener("popstate", () => guard?.());
