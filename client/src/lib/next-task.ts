/**
 * Resolves in a later task of the browser's event loop, so the work after it does not run in the task before: the
 * browser can paint and handle a tap in between (issue 39: no long task after the first paint). Uses
 * `scheduler.yield()` where there is one (it keeps this work ahead of other queued tasks), else a message to
 * itself (a timer of 0 ms can be clamped to 4 ms, or to 1 s in a background tab).
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === "function") return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(undefined);
  });
}
