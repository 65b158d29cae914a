import * as React from "react";

type ComponentModule<P> = { default: React.ComponentType<P> };
type TrackedPromise<T> = Promise<T> & { status?: "fulfilled"; value?: T };

export type LazyComponent<P extends object = object> = React.ComponentType<P> & {
  preload: () => Promise<ComponentModule<P>>;
};

/**
 * `React.lazy` plus a `preload()` that starts the same import early. Once the import has resolved the component
 * renders synchronously (React's `use` reads a settled promise at once), where `React.lazy` suspends on its first
 * render even with the module loaded. A Suspense fallback shown at start is not free: React then holds back every
 * content it reveals until 300 ms after that fallback appeared (its fallback throttle), which held the dashboard
 * back twice (decisions 023, 025).
 */
export function lazyComponent<P extends object = object>(
  load: () => Promise<ComponentModule<P>>,
): LazyComponent<P> {
  let pending: TrackedPromise<ComponentModule<P>> | undefined;
  const preload = (): TrackedPromise<ComponentModule<P>> => {
    if (pending) return pending;
    // A failure stays cached, as with React.lazy: the error boundary shows it instead of retrying forever.
    const promise: TrackedPromise<ComponentModule<P>> = load().then((module) => {
      promise.status = "fulfilled";
      promise.value = module;
      return module;
    });
    pending = promise;
    return promise;
  };
  // biome-ignore lint/correctness/noComponentHookFactories: called once per component at module level, like React.lazy
  function Lazy(props: P) {
    const Component = React.use<ComponentModule<P>>(preload() as Promise<ComponentModule<P>>).default;
    return React.createElement(Component, props);
  }
  return Object.assign(Lazy, { preload });
}
