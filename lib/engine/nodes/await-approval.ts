import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { interrupt } from "@langchain/langgraph";
import type { HumanInterrupt, HumanResponse } from "@langchain/langgraph/prebuilt";
import type { GraphStateValue, GraphUpdate } from "../state";

/**
 * The value a run resumes with after an approval card's decision (STYLE.md rule 7):
 * LangGraph's `HumanResponse` ("accept", or "response" carrying the rejection reason)
 * plus the challenge it answers, the token shown on the card and who decided.
 */
export interface ApprovalResume {
  response: HumanResponse;
  approval_id: string;
  token: string | null;
  decided_by: string;
}

/** The interrupt payload: one `HumanInterrupt` for the pending tool call. */
export type ApprovalInterrupt = HumanInterrupt & { approval_id: string; args_hash: string };

/**
 * AwaitApproval (SPEC.md 2): suspends the graph with `interrupt()`; the state is
 * checkpointed and the run ends as awaiting approval. Nothing runs before the interrupt,
 * so re-executing this node on resume is safe. The resume value becomes the
 * `approval_request` the ApprovalHandler checks.
 */
export function awaitApprovalNode() {
  return async (state: GraphStateValue, _config?: LangGraphRunnableConfig): Promise<GraphUpdate> => {
    const p = state.proposed_tool;
    const payload: ApprovalInterrupt = {
      action_request: { action: p?.name ?? "tool", args: (p?.args ?? {}) as Record<string, unknown> },
      config: { allow_accept: true, allow_respond: true, allow_edit: false, allow_ignore: false },
      description: `Approve ${p?.name ?? "the tool call"} with exactly these arguments? sha256 ${p?.args_hash ?? ""}`,
      approval_id: state.approval_id ?? "",
      args_hash: p?.args_hash ?? "",
    };
    const resume = interrupt<ApprovalInterrupt[], ApprovalResume>([payload]);
    const accept = resume.response.type === "accept";
    return {
      approval_request: {
        kind: accept ? "approve" : "reject",
        approval_id: resume.approval_id,
        token: resume.token,
        via: "card",
        decided_by: resume.decided_by,
        reason: !accept && typeof resume.response.args === "string" ? resume.response.args : null,
      },
    };
  };
}
