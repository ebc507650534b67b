import { Command, interrupt, type LangGraphRunnableConfig } from "@langchain/langgraph";
import type { HumanInterrupt, HumanResponse } from "@langchain/langgraph/prebuilt";
import type { ApprovalDecisionKind } from "../../approvals/inbox-item";
import { mirror, sendBranch } from "../branch";
import type { BranchTask, StepBranch } from "../state";

/**
 * The value a run resumes with after a decision: LangGraph's
 * `HumanResponse` ("accept"; "edit" with the new `ActionRequest`; "response" with the
 * feedback or rejection reason; "ignore") plus the decision it stands for (respond and
 * reject are both a "response"), the challenge it answers, the token shown on the card
 * and who decided.
 */
export interface ApprovalResume {
  response: HumanResponse;
  decision: ApprovalDecisionKind;
  approval_id: string;
  token: string | null;
  decided_by: string;
}

/** The interrupt payload: one `HumanInterrupt` for the pending tool call of one step. */
export type ApprovalInterrupt = HumanInterrupt & { approval_id: string; args_hash: string; step_id: string };

/**
 * AwaitApproval (docs/architecture.md#nodes): suspends the graph with `interrupt()`; the state is
 * checkpointed and the run ends as awaiting approval. Nothing runs before the interrupt,
 * so re-executing this node on resume is safe. Each step's branch suspends on its own
 * interrupt; the resume value becomes the branch's `approval_request` -> ApprovalHandler.
 */
export function awaitApprovalNode() {
  return async (task: BranchTask, _config?: LangGraphRunnableConfig): Promise<Command> => {
    const { branch } = task;
    const p = branch.proposed_tool;
    const payload: ApprovalInterrupt = {
      action_request: { action: p?.name ?? "tool", args: (p?.args ?? {}) as Record<string, unknown> },
      config: { allow_accept: true, allow_respond: true, allow_edit: true, allow_ignore: true },
      description: `Approve ${p?.name ?? "the tool call"} with exactly these arguments? sha256 ${p?.args_hash ?? ""}`,
      approval_id: branch.approval_id ?? "",
      args_hash: p?.args_hash ?? "",
      step_id: branch.step_id,
    };
    const resume = interrupt<ApprovalInterrupt[], ApprovalResume>([payload]);
    const { response } = resume;
    const next: StepBranch = {
      ...branch,
      phase: "running",
      approval_request: {
        kind: resume.decision,
        approval_id: resume.approval_id,
        token: resume.token,
        via: resume.decision === "expired" ? "system" : "card",
        decided_by: resume.decided_by,
        reason: response.type === "response" && typeof response.args === "string" ? response.args : null,
        edited_args: response.type === "edit" && response.args && typeof response.args === "object" ? response.args.args : null,
      },
    };
    return new Command({ update: mirror(next), goto: sendBranch("approval_handler", task, next) });
  };
}
