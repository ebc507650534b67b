import { afterEach, describe, expect, it } from "vitest";
import { setLogDestination } from "../log";
import { InProcessFanout } from "./in-process-fanout";

/** The in-process fan-out keeps PostgreSQL NOTIFY's semantics (lib/events/fanout.ts). */
describe("in-process fan-out", () => {
  const stops: (() => void)[] = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
  });
  const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 5));

  it("delivers JSON copies later, in send order, to the channel's listeners only", async () => {
    const f = new InProcessFanout();
    const got: unknown[] = [];
    const other: unknown[] = [];
    stops.push(f.listen("chan_a", (p) => void got.push(p)));
    stops.push(f.listen("chan_b", (p) => void other.push(p)));
    const payload = { id: "x", n: 1 };
    await f.notify("chan_a", payload);
    expect(got).toEqual([]);
    await f.notify("chan_a", { id: "y", n: 2 });
    await tick();
    expect(got).toEqual([
      { id: "x", n: 1 },
      { id: "y", n: 2 },
    ]);
    expect(got[0]).not.toBe(payload);
    expect(other).toEqual([]);
  });

  it("stops after unlisten (twice is harmless); a failing listener is logged and the others still hear", async () => {
    const f = new InProcessFanout();
    const lines: Record<string, unknown>[] = [];
    stops.push(setLogDestination({ write: (line: string) => void lines.push(JSON.parse(line)) }, { level: "info" }));
    const got: unknown[] = [];
    stops.push(
      f.listen("chan_c", () => {
        throw new Error("listener bug");
      }),
    );
    const stop = f.listen("chan_c", (p) => void got.push(p));
    await stop.ready;
    await f.notify("chan_c", 1);
    await tick();
    stop();
    stop();
    await f.notify("chan_c", 2);
    await tick();
    expect(got).toEqual([1]);
    // The failing listener still listens: it failed on both notifications.
    const failed = expect.objectContaining({ msg: "fanout: a listener failed", channel: "chan_c", err: expect.objectContaining({ message: "listener bug" }) });
    expect(lines).toEqual([failed, failed]);
  });

  it("refuses channel names PostgreSQL would not take unquoted and payloads over 7,999 bytes", async () => {
    const f = new InProcessFanout();
    expect(() => f.listen("Chan-A", () => undefined)).toThrow(/not a channel name/);
    await expect(f.notify("x".repeat(64), 1)).rejects.toThrow(/not a channel name/);
    await expect(f.notify("chan_d", "é".repeat(4_000))).rejects.toThrow(/8002 bytes/);
    await expect(f.notify("chan_d", "e".repeat(7_990))).resolves.toBeUndefined();
  });
});
