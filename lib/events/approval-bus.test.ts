import { afterEach, describe, expect, it } from "vitest";
import { setLogDestination, withLogContext } from "../log";
import { type ApprovalEvent, onApproval, publishApproval } from "./approval-bus";
import { onApprovalAnywhere } from "./approval-fanout";
import { type BusEvent, subscribe } from "./bus";

/** Approval changes travel as approval.* bus events (SPEC.md 7; issue 4 live inbox). */
describe("approval bus", () => {
  const stops: (() => void)[] = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
  });
  const change: ApprovalEvent = { type: "approval.created", approvalId: "ap1", threadId: "t1", status: "pending", at: 5 };

  it("delivers each change to onApproval listeners and to approval.* bus subscribers", async () => {
    const heard: ApprovalEvent[] = [];
    const onBus: BusEvent[] = [];
    stops.push(onApproval((e) => void heard.push(e)));
    stops.push(subscribe("approval.*", (e) => void onBus.push(e)));
    publishApproval(change);
    publishApproval({ ...change, type: "approval.consumed", status: "consumed", at: 6 });
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(heard).toEqual([change, { ...change, type: "approval.consumed", status: "consumed", at: 6 }]);
    expect(onBus[0]).toMatchObject({ topic: "approval.created", threadId: "t1", runId: null, at: 5, data: { approvalId: "ap1", status: "pending" } });
    expect(onBus[0]?.traceId).toMatch(/^[0-9a-f]{32}$/);
  });

  it("carries the trace id and run of the run it happens in; a failing listener is logged, not thrown at the publisher", async () => {
    const onBus: BusEvent[] = [];
    const lines: Record<string, unknown>[] = [];
    stops.push(setLogDestination({ write: (line: string) => void lines.push(JSON.parse(line)) }, { level: "info" }));
    stops.push(
      onApproval(() => {
        throw new Error("listener bug");
      }),
    );
    stops.push(subscribe("approval.*", (e) => void onBus.push(e)));
    const ids = { traceId: "0af7651916cd43dd8448eb211c80319c", threadId: "t1", runId: "r1" };
    expect(() => withLogContext(ids, () => publishApproval(change))).not.toThrow();
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(onBus[0]).toMatchObject(ids);
    expect(lines).toEqual([expect.objectContaining({ msg: "approval subscriber failed", approvalId: "ap1", ...ids, err: expect.objectContaining({ message: "listener bug" }) })]);
  });

  it("also notifies each change on the fan-out, so the inbox of every server process hears it once", async () => {
    const heard: ApprovalEvent[] = [];
    stops.push(onApprovalAnywhere((e) => void heard.push(e)));
    publishApproval(change);
    await new Promise<void>((resolve) => setTimeout(resolve, 5));
    expect(heard).toEqual([change]);
  });

  it("refuses a malformed change", () => {
    expect(() => publishApproval({ ...change, type: "approval.lost" } as never)).toThrow();
  });
});
