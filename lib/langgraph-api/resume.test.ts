import { describe, expect, it } from "vitest";
import { canonicalArgs } from "../policy/canonical";
import { resumeInput, type WaitingInterrupts } from "./resume";

const one: WaitingInterrupts = { approvals: [{ id: "i-1", approvalId: "apv_one" }], question: null, outcomes: [] };
const two: WaitingInterrupts = {
  approvals: [
    { id: "i-1", approvalId: "apv_one" },
    { id: "i-2", approvalId: "apv_two" },
  ],
  question: null,
  outcomes: [],
};
const args = { path: "summary.md", content: "hello" };
const echo = (approvalId = "apv_one", token: string | null = "tok") => ({ action: "write_file", args, approval: { id: approvalId, ...(token ? { token } : {}), args_hash: canonicalArgs(args).hash } });

describe("resumeInput", () => {
  it("turns an accept with the echoed action_request into an approve with its token and the hash of what was shown", () => {
    expect(resumeInput({ type: "accept", args: echo() }, one)).toEqual({ kind: "decision", approvalId: "apv_one", decision: "approve", token: "tok", argsHash: canonicalArgs(args).hash });
  });

  it("refuses an accept without the token, naming the field", () => {
    expect(() => resumeInput({ type: "accept", args: null }, one)).toThrow(/command\.resume\.args.*approval\.token/);
    expect(() => resumeInput({ type: "accept", args: echo("apv_one", null) }, one)).toThrow(/approval\.token/);
  });

  it("turns an edit without the token (Agent Inbox's { action, args }) into a revise, which runs nothing; without arguments it is refused", () => {
    const inbox = { action: "write_file", args: { path: "other.md", content: "edited" } };
    expect(resumeInput([{ type: "edit", args: inbox }], one)).toEqual({ kind: "decision", approvalId: "apv_one", decision: "revise", args: { path: "other.md", content: "edited" } });
    expect(resumeInput([{ type: "edit", args: { ...echo("apv_one", null), args: { path: "x.md" } } }], one)).toMatchObject({ decision: "revise", args: { path: "x.md" } });
    expect(() => resumeInput({ type: "edit", args: { action: "write_file" } as never }, one)).toThrow(/command\.resume\.args\.args/);
  });

  it("maps edit, response and ignore to the run view's decisions", () => {
    expect(resumeInput({ type: "edit", args: { ...echo(), args: { path: "other.md" } } }, one)).toMatchObject({ decision: "edit", token: "tok", args: { path: "other.md" } });
    expect(resumeInput([{ type: "response", args: "use notes.md" }], one)).toEqual({ kind: "decision", approvalId: "apv_one", decision: "respond", comment: "use notes.md" });
    expect(resumeInput({ type: "ignore", args: null }, one)).toEqual({ kind: "decision", approvalId: "apv_one", decision: "ignore" });
    expect(() => resumeInput({ type: "response", args: " " }, one)).toThrow(/response needs the text/);
  });

  it("finds the interrupt by key, by the echoed approval, or as the only one waiting", () => {
    expect(resumeInput({ "i-2": { type: "ignore", args: null } }, two)).toMatchObject({ approvalId: "apv_two" });
    expect(resumeInput({ type: "accept", args: echo("apv_two") }, two)).toMatchObject({ approvalId: "apv_two" });
    expect(() => resumeInput({ type: "ignore", args: null }, two)).toThrow(/waits on 2 interrupts/);
    expect(() => resumeInput({ "i-9": { type: "ignore", args: null } }, two)).toThrow(/not waiting on interrupt i-9/);
    expect(() => resumeInput({ type: "accept", args: echo("apv_nine") }, two)).toThrow(/not waiting on approval apv_nine/);
  });

  it("answers a question with text and an unknown outcome with retry or skip", () => {
    expect(resumeInput("notes.md", { approvals: [], question: { id: "q" }, outcomes: [] })).toEqual({ kind: "message", text: "notes.md" });
    const outcome = { approvals: [], question: null, outcomes: [{ id: "o", toolCallId: "call_1" }] };
    expect(resumeInput({ type: "accept", args: null }, outcome)).toEqual({ kind: "outcome", toolCallId: "call_1", choice: "retry" });
    expect(resumeInput({ type: "ignore", args: null }, outcome)).toEqual({ kind: "outcome", toolCallId: "call_1", choice: "skip" });
  });

  it("refuses a resume when nothing waits", () => {
    expect(() => resumeInput("hi", { approvals: [], question: null, outcomes: [] })).toThrow(/not waiting on an interrupt/);
  });

  it("refuses a viewer's Accept with 403 role_forbidden before asking for a token it can never have (Agent Inbox)", () => {
    const viewer = { ...one, role: "viewer" as const };
    const inboxAccept = [{ type: "accept" as const, args: { action: "write_file", args } }];
    expect(() => resumeInput(inboxAccept, viewer)).toThrow(expect.objectContaining({ code: "forbidden", reason: "role_forbidden" }));
    expect(() => resumeInput({ type: "accept", args: null }, viewer)).toThrow(/viewer; it cannot decide approvals/);
    expect(() => resumeInput({ type: "ignore", args: null }, { ...two, role: "viewer" })).toThrow(expect.objectContaining({ reason: "role_forbidden" }));
    expect(() => resumeInput("notes.md", { approvals: [], question: { id: "q" }, outcomes: [], role: "viewer" })).toThrow(expect.objectContaining({ reason: "role_forbidden" }));
    // Those who may decide still get the token's own answer.
    expect(() => resumeInput(inboxAccept, { ...one, role: "approver" })).toThrow(expect.objectContaining({ reason: "token_required" }));
    expect(resumeInput({ type: "accept", args: echo() }, { ...one, role: "owner" })).toMatchObject({ decision: "approve", token: "tok" });
  });
});
