import * as React from "react";

/**
 * Whether a toast is on screen: all the shell needs to know to mount the toaster (LazyToaster). The toasts
 * themselves (use-toast.ts, which keeps this up to date) arrive with the pages that raise them, not in the shell
 * every page loads (issue 39).
 */
let present = false;
const listeners = new Set<() => void>();

export function setToastPresent(next: boolean): void {
  if (present === next) return;
  present = next;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
};

export function useToastPresent(): boolean {
  return React.useSyncExternalStore(
    subscribe,
    () => present,
    () => false,
  );
}
