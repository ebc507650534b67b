import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/client";
import { collect, type EngineFixture, engineFixture, lastData } from "./test-helpers";
import { enqueueRun } from "./run-thread";

/**
 * The reads of a decision's accept (docs/architecture.md#approvals): the run checks resolve the
 * decider's role in the thread's workspace once, and the approval service reuses it, reading
 * the challenge alone instead of joining it again with the decider's membership. Every Prisma
 * operation of the accept is recorded (a client extension), on a real database.
 */
describe("a decision's accept", () => {
  let f: EngineFixture;
  const ops: { model: string | undefined; operation: string; joinsMembers: boolean }[] = [];
  let traced: Db;
  beforeAll(async () => {
    f = await engineFixture();
    traced = f.t.db.$extends({
      query: {
        $allModels: {
          $allOperations({ model, operation, args, query }) {
            const include = (args as { include?: Record<string, unknown> }).include ?? {};
            ops.push({ model, operation, joinsMembers: model === "Approval" && "thread" in include });
            return query(args);
          },
        },
      },
    }) as unknown as Db;
  });
  afterAll(async () => f.cleanup());

  it("looks the decider's role up once: the challenge is read alone, with the role the run checks found", async () => {
    const task = "Write out.md with content: hi";
    const threadId = await f.newThread(task);
    const started = await collect(await f.prepare(threadId, { kind: "message", text: task, agentId: "assistant" }));
    const approval = lastData(started, "data-approval")?.data;
    if (!approval) throw new Error("the run did not wait for approval");
    ops.length = 0;
    const accepted = await enqueueRun({
      db: traced,
      threadId,
      userId: f.userId,
      input: { kind: "decision", decision: "approve", approvalId: approval.approvalId, token: approval.token, argsHash: approval.argsHash },
      deps: f.deps,
    });
    expect(accepted.role).toBe("owner");
    expect(ops.filter((o) => o.model === "Membership")).toHaveLength(1);
    expect(ops.filter((o) => o.joinsMembers)).toHaveLength(0);
    expect(await f.t.db.approval.findUniqueOrThrow({ where: { id: approval.approvalId }, select: { status: true } })).toEqual({ status: "approved" });
  });
});
