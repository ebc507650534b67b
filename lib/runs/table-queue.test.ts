import { describe, expect, it } from "vitest";
import type { Db } from "../db/client";
import { InProcessFanout } from "../events/in-process-fanout";
import { fairPick, TABLE_WAKE_CHANNEL, tableQueue } from "./table-queue";

const jobs = (...who: string[]) => who.map((requestedBy, i) => ({ id: `j${i}`, requestedBy }));

describe("fairPick: a fair share of run slots", () => {
  it("takes the oldest jobs first while nobody is at the cap", () => {
    expect(fairPick(jobs("a", "b", "a"), [], 3, 4).map((j) => j.id)).toEqual(["j0", "j1", "j2"]);
  });

  it("keeps one slot of four from a requester who queued many runs, so another's run gets it", () => {
    const picked = fairPick(jobs("attacker", "attacker", "attacker", "attacker", "attacker", "other"), [], 4, 4);
    expect(picked.map((j) => j.requestedBy)).toEqual(["attacker", "attacker", "attacker", "other"]);
  });

  it("counts the jobs already in flight", () => {
    expect(fairPick(jobs("a", "a", "b"), ["a", "a", "a"], 1, 4).map((j) => j.requestedBy)).toEqual(["b"]);
  });

  it("with one slot, one requester may use it", () => {
    expect(fairPick(jobs("a", "a"), [], 1, 1)).toHaveLength(1);
  });
});

describe("the table queue's wake-ups go through the fan-out", () => {
  /** A RunJob table that has one queued job from its second read on. */
  const dbWithJobLater = () => {
    let reads = 0;
    const db = { runJob: { findMany: async () => (++reads > 1 && reads < 3 ? [{ id: "job-1", requestedBy: "alice" }] : []) } };
    return { db: db as unknown as Db, reads: () => reads };
  };

  it("a dispatch notifies the job on the fan-out, so a worker in another process (the worker child) hears it", async () => {
    const fan = new InProcessFanout();
    const heard: unknown[] = [];
    fan.listen(TABLE_WAKE_CHANNEL, (p) => void heard.push(p));
    await tableQueue(dbWithJobLater().db, 3_600_000, () => fan).dispatch("job-1");
    await new Promise((r) => setImmediate(r));
    expect(heard).toEqual([{ j: "job-1" }]);
    await fan.close();
  });

  it("a consumer that waits an hour between polls takes the job as soon as the fan-out tells it", async () => {
    const fan = new InProcessFanout();
    const { db } = dbWithJobLater();
    const q = tableQueue(db, 3_600_000, () => fan);
    const ran: string[] = [];
    let took: () => void = () => undefined;
    const taken = new Promise<void>((resolve) => {
      took = resolve;
    });
    await q.consume(async (id) => {
      ran.push(id);
      took();
    }, 2);
    // Another process's dispatch, as the IPC fan-out delivers it: a notification on the channel.
    await new Promise((r) => setImmediate(r));
    await fan.notify(TABLE_WAKE_CHANNEL, { j: "job-1" });
    await taken;
    expect(ran).toEqual(["job-1"]);
    await q.stop();
    await fan.close();
  });
});
