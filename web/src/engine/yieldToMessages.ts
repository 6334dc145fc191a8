// A worker's way to let queued messages (a cancel, a newer request) in between slices of
// work: yield with a message rather than setTimeout, which browsers clamp to 4 ms when
// nested. Used by the engine worker and the export worker.

/** A function that resolves once the worker's message queue has been served. */
export function messageYielder(): () => Promise<void> {
  const channel = new MessageChannel();
  const waiting: (() => void)[] = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      channel.port2.postMessage(null);
    });
}
