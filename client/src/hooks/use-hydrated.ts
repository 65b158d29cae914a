import * as React from "react";

const subscribe = () => () => {};

/**
 * False while the server renders and while the browser hydrates that HTML, true from the render after: what
 * depends on the browser (stored theme, session, client-only widgets) renders its server form first, so the markup
 * hydrates without a mismatch (decision 017), and updates right after.
 */
export function useHydrated(): boolean {
  return React.useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
