import { Command, END, interrupt, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { DEFAULT_MODEL_CALL_TIMEOUT_MS, type ModelCallDeadline, withModelDeadline } from "../../models/call-timeout";
import { conversationSystem, finalizerPrompt, finalizerSystem } from "../../models/prompts";
import type { EngineDeps } from "../deps";
import { emit, emitLive } from "../emit";
import { streamCall } from "../stream-call";
import { NOT_DONE, notDoneLines } from "../outcomes";
import { callSettingsOf, modelRefOf } from "../../flow/compile";
import { type GraphStateValue, type GraphUpdate, modelKey, type Plan, usageOf } from "../state";

/**
 * Finalizer (docs/architecture.md#nodes): writes the answer the user sees: small talk for a conversation,
 * otherwise the model's summary of the steps that were done, followed by the run's own
 * account of what was not done (blocked, rejected, failed, skipped: who or what and why)
 * and of an error that stopped it; a run cancelled by an approver says so. The model's text streams as it is
 * written (live deltas, never stored), then the whole answer is emitted once as text and appended to the
 * thread's messages; the run's lifecycle ends COMPLETED or FAILED -> END.
 * When the Supervisor gives up on a plan, the Finalizer asks the user how to proceed and
 * the run waits for the answer as an interrupt (the run service shows the question); the
 * answer goes to the Planner for a new plan. A Human input step's question waits the same
 * way; its answer goes back to the Supervisor as the step's result.
 */
export function finalizerNode(deps: EngineDeps) {
  return async (state: GraphStateValue, config?: LangGraphRunnableConfig): Promise<Command> => {
    if (state.awaiting_user_input && state.question) {
      // Nothing runs before the interrupt, so re-running this node on resume is safe.
      const answer = interrupt<QuestionInterrupt, string>({ kind: "question", question: state.question, ...(state.human_step_id ? { stepId: state.human_step_id } : {}) });
      const asked: GraphUpdate = {
        messages: [
          { role: "assistant", content: state.question },
          { role: "user", content: answer },
        ],
        awaiting_user_input: false,
        question: null,
      };
      if (state.human_step_id) {
        // A Human input step's answer: back to the Supervisor, which records it as the step's result.
        const update: GraphUpdate = { ...asked, human_step_id: null, human_answer: { step_id: state.human_step_id, text: answer }, lifecycle: "STEP_EXECUTION" };
        return new Command({ update, goto: "supervisor" });
      }
      const update: GraphUpdate = {
        ...asked,
        replans: 0,
        replan_reason: `${state.question}\nThe user answered: ${answer}`,
        lifecycle: "REPLAN",
      };
      return new Command({ update, goto: "planner" });
    }
    // The End node's model settings are the finalizer's (docs/models.md "Per-node settings").
    const resolved = deps.resolveModel(modelRefOf(deps.flow.finalizer, deps.flow));
    const { model } = resolved;
    const settings = callSettingsOf(deps.flow.finalizer);
    const last = [...state.messages].reverse().find((m) => m.role === "user")?.content ?? "";
    const plan = state.plan;
    let text: string;
    let spent = { input_tokens: 0, output_tokens: 0 };
    const callLimit = deps.flow.limits.modelCallTimeoutMs ?? DEFAULT_MODEL_CALL_TIMEOUT_MS;
    // The answer streams as it is written (docs/runs.md "Streaming"), under the id of the text
    // part stored once it is finished; the run's cancel and the call's time limit end the model's stream.
    const id = `final-${state.messages.length}`;
    const write = (d: ModelCallDeadline) => ({
      ...settings,
      abortSignal: d.signal,
      onPart: d.touch,
      onText: (delta: string) => emitLive(config, { type: "text-delta", id, node: "finalizer", delta }),
    });
    try {
      if (plan?.status === "cancelled") {
        // Dismissed by an approver: say so plainly; no model call.
        const done = plan.steps.filter((s) => s.status === "completed").map((s) => `- ${s.task}`);
        text = `Cancelled. ${plan.failure_reason ?? "The run was cancelled."}${done.length ? `\nCompleted before that:\n${done.join("\n")}` : " Nothing else ran."}`;
      } else if (state.intent === "conversation" || !plan) {
        const res = await withModelDeadline(callLimit, (d) => streamCall({ model, system: conversationSystem(), prompt: last, ...write(d) }), config?.signal);
        text = res.text;
        spent = usageOf(res.usage);
      } else {
        // The model writes only about work that was done, from those steps' results; what was
        // not done (and why) is the engine's own account, appended below, so no model can
        // turn a blocked, rejected or failed action into a success.
        const done = plan.steps.filter((s) => s.status === "completed").map((s) => ({ task: s.task, status: s.status, result: s.result ?? "" }));
        if (done.length > 0) {
          // The model is told that not everything was done (not what failed: the report says that), so it never calls the task done.
          const missed = plan.steps.filter((s) => NOT_DONE.includes(s.status)).length;
          const note =
            missed > 0 ? `${PARTLY_DONE} ${missed} step${missed === 1 ? " was" : "s were"} not done; the run's report after your answer lists them. Do not say the task is done.` : undefined;
          const res = await withModelDeadline(
            callLimit,
            (d) => streamCall({ model, system: finalizerSystem(), prompt: finalizerPrompt({ task: plan.query, steps: done, ...(note ? { note } : {}) }), ...write(d) }),
            config?.signal,
          );
          text = res.text;
          spent = usageOf(res.usage);
        } else {
          text = "Nothing was done.";
        }
      }
    } catch (err) {
      text = `The run finished, but the final answer could not be written: ${err instanceof Error ? err.message : String(err)}`;
    }
    text = text.trim() || "(no answer)";
    if (plan && plan.status !== "cancelled" && state.intent !== "conversation") text = withReport(text, plan, state.error?.message ?? null);
    emit(config, { type: "text", id, text });
    // Small talk never fails, even after a failed task in the same thread.
    const failed = state.intent !== "conversation" && (Boolean(state.error) || plan?.status === "failed");
    return new Command({
      goto: END,
      update: {
        token_usage: spent,
        model_usage: spent.input_tokens + spent.output_tokens > 0 ? { [modelKey(resolved)]: spent } : {},
        messages: [{ role: "assistant", content: text }],
        final_answer: text,
        lifecycle: failed ? "FAILED" : "COMPLETED",
        current_agent: null,
      },
    });
  };
}

/**
 * The answer with the run's own account appended: why it stopped (an error or a failed
 * plan), then every step that was blocked, rejected, failed or skipped, and why
 * (docs/runs.md "Status vocabulary").
 */
export function withReport(answer: string, plan: Plan, error: string | null): string {
  const parts = [answer];
  const stopped = error ?? (plan.status === "failed" ? plan.failure_reason : null);
  if (stopped) parts.push(`The run stopped: ${stopped}`);
  const lines = notDoneLines(plan);
  if (lines.length > 0) parts.push(["Not done:", ...lines].join("\n"));
  return parts.join("\n\n");
}

/** Opens the finalizer's note when some steps were not done (docs/runs.md "Status vocabulary"). */
export const PARTLY_DONE = "Not everything was done:";

/** The interrupt payload of a question to the user (when the run cannot go on, or a Human input step). */
export interface QuestionInterrupt {
  kind: "question";
  question: string;
  /** Set when the question is a Human input step's prompt (docs/architecture.md#flows-and-compilation): the step it answers. */
  stepId?: string;
}
