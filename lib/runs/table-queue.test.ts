import { describe, expect, it } from "vitest";
import { fairPick } from "./table-queue";

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
