type IdleWindow = Window & {
  requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number;
  cancelIdleCallback?: (handle: number) => void;
};

/** Runs `task` when the browser is idle (or after `fallbackMs` where requestIdleCallback is missing). */
export function whenIdle(task: () => void, fallbackMs = 1500): () => void {
  const w = window as IdleWindow;
  if (w.requestIdleCallback && w.cancelIdleCallback) {
    const handle = w.requestIdleCallback(task, { timeout: 4000 });
    return () => w.cancelIdleCallback?.(handle);
  }
  const timer = setTimeout(task, fallbackMs);
  return () => clearTimeout(timer);
}

/** Fetches and decodes an image so it paints at once when used. */
export function preloadImage(src: string): Promise<void> {
  const image = new Image();
  image.decoding = "async";
  image.src = src;
  return image.decode().catch(() => undefined);
}

/**
 * Whether the server lists the code `name` stands for as prefetch links (`data-prefetch`, decision 023): in the
 * head, or still in the after-paint template, whose prefetch links index.html inserts in idle time.
 */
export function serverPrefetches(name: string): boolean {
  const selector = `link[data-prefetch="${name}"]`;
  const template = document.getElementById("after-paint");
  return (
    document.querySelector(selector) !== null ||
    (template instanceof HTMLTemplateElement && template.content.querySelector(selector) !== null)
  );
}
