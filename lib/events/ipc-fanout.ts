import { logger } from "../log";
import { checkChannel, deliver, encodeNotification, type Fanout, type FanoutHandler, type Unlisten, unlistenOf } from "./fanout";

/**
 * The environment variable the web process sets on the worker child it forks
 * (lib/runs/worker-child.ts): the child's fan-out is the IPC channel to its parent.
 */
export const WORKER_CHILD_ENV = "PHYLACTERY_WORKER_CHILD";

/** The message of a notification on an IPC channel: `t` tags it, `c` is the channel, `p` the payload's JSON text. */
interface IpcNotice {
  t: "phylactery-fanout";
  c: string;
  p: string;
}

/**
 * One end of an IPC channel (`child_process.fork`): a child process object in the parent,
 * `process` in the child. Only what the fan-out uses.
 */
export interface IpcPeer {
  /** False once the channel is closed. */
  readonly connected: boolean;
  send(message: unknown, callback: (err: Error | null) => void): boolean;
  on(event: "message", listener: (message: unknown) => void): unknown;
  off(event: "message", listener: (message: unknown) => void): unknown;
}

const log = logger.child({ module: "ipc-fanout" });

const isNotice = (m: unknown): m is IpcNotice => {
  const n = m as IpcNotice | null;
  return typeof n === "object" && n !== null && n.t === "phylactery-fanout" && typeof n.c === "string" && typeof n.p === "string";
};

/**
 * The fan-out of the embedded default when runs execute in a worker child
 * (docs/architecture.md#live-streams): the web process and its worker child, on one SQLite
 * file, over the child's IPC channel (`child_process.fork`). Same semantics as the others
 * (lib/events/fanout.ts): hints only, delivered asynchronously (never inside `notify`), in
 * the order one notifier sent them, to the listeners of every process, the notifier's own
 * included. A star: the parent attaches each child it forks as a peer; a notification from
 * one peer goes to the parent's listeners and on to the other peers; the parent's goes to its
 * listeners and every peer. A peer that is not connected (a child being restarted) misses the
 * notifications of that time, as a lost NOTIFY does: its listeners catch up by polling.
 */
export class IpcFanout implements Fanout {
  private readonly channels = new Map<string, Set<FanoutHandler>>();
  private readonly peers = new Map<IpcPeer, (message: unknown) => void>();

  /** @param peers the IPC ends to start with (`process` in a child; none in the parent, which attaches its children). */
  constructor(peers: IpcPeer[] = []) {
    for (const p of peers) this.attach(p);
  }

  /**
   * Relays notifications to and from a peer from now on.
   * @returns the function that detaches it (idempotent).
   */
  attach(peer: IpcPeer): () => void {
    if (this.peers.has(peer)) return () => this.detach(peer);
    const onMessage = (m: unknown) => {
      if (!isNotice(m)) return;
      this.local(m.c, m.p);
      for (const other of this.peers.keys()) if (other !== peer) this.sendTo(other, m);
    };
    this.peers.set(peer, onMessage);
    peer.on("message", onMessage);
    return () => this.detach(peer);
  }

  /** How many peers are attached (health, tests). */
  peerCount(): number {
    return this.peers.size;
  }

  async notify(channel: string, payload: unknown): Promise<void> {
    const text = encodeNotification(channel, payload);
    this.local(channel, text);
    const notice: IpcNotice = { t: "phylactery-fanout", c: channel, p: text };
    for (const peer of this.peers.keys()) this.sendTo(peer, notice);
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
    for (const peer of [...this.peers.keys()]) this.detach(peer);
  }

  private detach(peer: IpcPeer): void {
    const onMessage = this.peers.get(peer);
    if (!onMessage) return;
    this.peers.delete(peer);
    peer.off("message", onMessage);
  }

  /** Delivers to this process's listeners of the moment on a later macrotask, in send order. */
  private local(channel: string, text: string): void {
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

  private sendTo(peer: IpcPeer, notice: IpcNotice): void {
    if (!peer.connected) return;
    try {
      peer.send(notice, (err) => {
        if (err) log.debug({ err, channel: notice.c }, "fanout: a notification did not reach the other process (its listeners poll)");
      });
    } catch (err) {
      log.debug({ err, channel: notice.c }, "fanout: a notification did not reach the other process (its listeners poll)");
    }
  }
}
