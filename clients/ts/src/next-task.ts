/**
 * Run a callback in a later task of the event loop: after every microtask queued now (a
 * move's promise and whatever awaits it), but without a timer's delay. `setTimeout(f, 0)`
 * waits at least 1 ms in node (browsers clamp nested timers to 4 ms), and the socket paid
 * that on every move between its `ack` and the `update` of the same ply.
 *
 * node: `setImmediate`; browsers: a `MessageChannel` message (a task, not clamped);
 * anything else: `setTimeout`.
 */
type Callback = () => void;

const immediate = (globalThis as { setImmediate?: (callback: Callback) => unknown }).setImmediate;

const queued: Callback[] = [];
let channel: MessageChannel | null = null;

function viaChannel(callback: Callback): boolean {
  if (typeof MessageChannel === "undefined") return false;
  if (channel === null) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => queued.shift()?.();
  }
  queued.push(callback);
  channel.port2.postMessage(null);
  return true;
}

export function nextTask(callback: Callback): void {
  if (immediate !== undefined) {
    immediate(callback);
  } else if (!viaChannel(callback)) {
    setTimeout(callback, 0);
  }
}
