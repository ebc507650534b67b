import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it } from "vitest";
import { fanoutFor } from "./fanout-of";
import { InProcessFanout } from "./in-process-fanout";
import { IpcFanout, type IpcPeer } from "./ipc-fanout";

/**
 * Both ends of a fake IPC channel, as `child_process.fork` gives them (the child process
 * object in the parent, `process` in the child): a message sent on one end is emitted on the
 * other on a later macrotask, in order, JSON-copied.
 */
function channel(): { parentEnd: IpcPeer & { disconnect(): void }; childEnd: IpcPeer } {
  const a = new EventEmitter();
  const b = new EventEmitter();
  let connected = true;
  const end = (self: EventEmitter, other: EventEmitter) =>
    Object.assign(self, {
      get connected() {
        return connected;
      },
      send(message: unknown, cb: (err: Error | null) => void) {
        if (!connected) throw new Error("ERR_IPC_CHANNEL_CLOSED");
        const copy = JSON.parse(JSON.stringify(message));
        setImmediate(() => {
          other.emit("message", copy);
          cb(null);
        });
        return true;
      },
    });
  return {
    parentEnd: Object.assign(end(a, b), {
      disconnect: () => {
        connected = false;
      },
    }),
    childEnd: end(b, a),
  };
}

/** Lets 20 turns of the event loop pass: every hop of the fake channel (one turn each) is done, whatever the machine's load. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** The IPC fan-out keeps the fan-out's semantics (lib/events/fanout.ts) across a parent and its worker children. */
describe("IPC fan-out between a web process and its worker child", () => {
  const closes: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closes.splice(0)) await close();
  });
  const pair = () => {
    const { parentEnd, childEnd } = channel();
    const parent = new IpcFanout();
    parent.attach(parentEnd);
    const child = new IpcFanout([childEnd]);
    closes.push(
      () => parent.close(),
      () => child.close(),
    );
    return { parent, child, parentEnd };
  };

  it("a notification reaches the listeners of both processes, later, in send order, as JSON copies", async () => {
    const { parent, child } = pair();
    const inParent: unknown[] = [];
    const inChild: unknown[] = [];
    parent.listen("chan_a", (p) => void inParent.push(p));
    child.listen("chan_a", (p) => void inChild.push(p));
    child.listen("chan_b", () => inChild.push("wrong channel"));
    const payload = { id: "x" };
    await parent.notify("chan_a", payload);
    await child.notify("chan_a", { id: "y" });
    await parent.notify("chan_a", { id: "z" });
    // Never inside notify.
    expect(inParent).toEqual([]);
    expect(inChild).toEqual([]);
    await settle();
    // Each notifier's own in order; the notifier's process hears its own too.
    expect(inParent.filter((p) => (p as { id: string }).id !== "y")).toEqual([{ id: "x" }, { id: "z" }]);
    expect(inParent).toContainEqual({ id: "y" });
    expect(inChild.filter((p) => (p as { id: string }).id !== "y")).toEqual([{ id: "x" }, { id: "z" }]);
    expect(inChild).toContainEqual({ id: "y" });
    expect(inParent).toHaveLength(3);
    expect(inChild).toHaveLength(3);
    expect(inParent[0]).not.toBe(payload);
  });

  it("the parent relays one child's notifications to its other children, not back to the sender", async () => {
    const parent = new IpcFanout();
    const one = channel();
    const two = channel();
    parent.attach(one.parentEnd);
    parent.attach(two.parentEnd);
    const childOne = new IpcFanout([one.childEnd]);
    const childTwo = new IpcFanout([two.childEnd]);
    closes.push(
      () => parent.close(),
      () => childOne.close(),
      () => childTwo.close(),
    );
    const heard: string[] = [];
    childOne.listen("chan_c", (p) => void heard.push(`one:${p}`));
    childTwo.listen("chan_c", (p) => void heard.push(`two:${p}`));
    parent.listen("chan_c", (p) => void heard.push(`parent:${p}`));
    await childOne.notify("chan_c", "hi");
    await settle();
    expect(heard.sort()).toEqual(["one:hi", "parent:hi", "two:hi"]);
  });

  it("a child that is gone (restarting) misses notifications without an error; the parent's listeners still hear them", async () => {
    const { parent, child, parentEnd } = pair();
    const inParent: unknown[] = [];
    const inChild: unknown[] = [];
    parent.listen("chan_d", (p) => void inParent.push(p));
    child.listen("chan_d", (p) => void inChild.push(p));
    parentEnd.disconnect();
    await expect(parent.notify("chan_d", 1)).resolves.toBeUndefined();
    await settle();
    expect(inParent).toEqual([1]);
    expect(inChild).toEqual([]);
  });

  it("ignores other messages on the channel, stops after unlisten, and detaches its peers on close", async () => {
    const { parent, child, parentEnd } = pair();
    const inChild: unknown[] = [];
    const stop = child.listen("chan_e", (p) => void inChild.push(p));
    parentEnd.send({ t: "phylactery-worker-ready" }, () => undefined);
    parentEnd.send({ t: "phylactery-fanout", c: "chan_e" }, () => undefined);
    await parent.notify("chan_e", "first");
    await settle();
    stop();
    stop();
    await parent.notify("chan_e", "second");
    await settle();
    expect(inChild).toEqual(["first"]);
    expect(parent.peerCount()).toBe(1);
    await parent.close();
    expect(parent.peerCount()).toBe(0);
  });

  it("refuses the channel names and payload sizes the other fan-outs refuse", async () => {
    const { parent } = pair();
    expect(() => parent.listen("Chan-A", () => undefined)).toThrow(/not a channel name/);
    await expect(parent.notify("chan_f", "é".repeat(4_000))).rejects.toThrow(/8002 bytes/);
  });

  it("is what a SQLite process gets when it has a worker child or is one; the in-process one otherwise", async () => {
    const { childEnd } = channel();
    const made = [fanoutFor("file:./x.db", { parent: childEnd }), fanoutFor("file:./x.db", { forksWorker: true }), fanoutFor("file:./x.db")];
    closes.push(...made.map((f) => () => f.close()));
    expect(made[0]).toBeInstanceOf(IpcFanout);
    expect(made[1]).toBeInstanceOf(IpcFanout);
    expect(made[2]).toBeInstanceOf(InProcessFanout);
  });
});
