import { describe, expect, it } from "vitest";
import { platformRunStatus, platformThreadStatus } from "./status";

describe("platformThreadStatus", () => {
  it("is busy while a run holds the lease, whatever the stored status", () => {
    expect(platformThreadStatus({ status: "awaiting_approval", leaseRunId: "run_1" })).toBe("busy");
    expect(platformThreadStatus({ status: "completed", leaseRunId: "run_1" })).toBe("busy");
    expect(platformThreadStatus({ status: "running", leaseRunId: "run_1" })).toBe("busy");
  });
  it("is interrupted while the thread waits on an approval or an answer", () => {
    expect(platformThreadStatus({ status: "awaiting_approval", leaseRunId: null })).toBe("interrupted");
    expect(platformThreadStatus({ status: "awaiting_input", leaseRunId: null })).toBe("interrupted");
  });
  it("is error after a failed run, or a run nobody holds (recovery gave up: a person may Continue), and idle otherwise", () => {
    expect(platformThreadStatus({ status: "failed", leaseRunId: null })).toBe("error");
    expect(platformThreadStatus({ status: "running", leaseRunId: null })).toBe("error");
    for (const s of ["idle", "completed", "incomplete", "cancelled"]) expect(platformThreadStatus({ status: s, leaseRunId: null })).toBe("idle");
  });
});

describe("platformRunStatus", () => {
  it("maps every run status to one of the Platform's six", () => {
    expect(
      Object.fromEntries(["queued", "running", "awaiting_approval", "awaiting_input", "completed", "incomplete", "failed", "cancelled", "interrupted", "???"].map((s) => [s, platformRunStatus(s)])),
    ).toEqual({
      queued: "pending",
      running: "running",
      awaiting_approval: "interrupted",
      awaiting_input: "interrupted",
      completed: "success",
      incomplete: "error",
      failed: "error",
      cancelled: "interrupted",
      interrupted: "error",
      "???": "error",
    });
  });
});
