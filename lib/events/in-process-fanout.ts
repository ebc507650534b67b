import { checkChannel, deliver, encodeNotification, type Fanout, type FanoutHandler, type Unlisten, unlistenOf } from "./fanout";

/**
 * The in-process fan-out (one process; the embedded SQLite default): the same contract as
 * PostgreSQL's LISTEN/NOTIFY, so code written against it behaves the same on both. The
 * payload is copied through JSON and delivered on a later macrotask, in send order.
 */
export class InProcessFanout implements Fanout {
  private readonly channels = new Map<string, Set<FanoutHandler>>();

  async notify(channel: string, payload: unknown): Promise<void> {
    const text = encodeNotification(channel, payload);
    // Handlers listening when the notification is sent get it, as with NOTIFY.
    const handlers = [...(this.channels.get(channel) ?? [])];
    if (handlers.length > 0)
      setImmediate(() =>
        deliver(
          channel,
          handlers.filter((h) => this.channels.get(channel)?.has(h)),
          text,
        ),
      );
  }

  listen(channel: string, handler: FanoutHandler): Unlisten {
    checkChannel(channel);
    // A wrapper per call, so one handler listening twice is two listeners.
    const h: FanoutHandler = (p) => handler(p);
    let set = this.channels.get(channel);
    if (!set) {
      set = new Set();
      this.channels.set(channel, set);
    }
    set.add(h);
    return unlistenOf(() => {
      set.delete(h);
      if (set.size === 0 && this.channels.get(channel) === set) this.channels.delete(channel);
    }, Promise.resolve());
  }

  async close(): Promise<void> {
    this.channels.clear();
  }
}
