import { Command, END, interrupt, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { generateText } from "ai";
import { conversationSystem, finalizerPrompt, finalizerSystem } from "../../models/prompts";
import type { EngineDeps } from "../deps";
import { emit } from "../emit";
import { type GraphStateValue, type GraphUpdate, usageOf } from "../state";

/**
 * Finalizer (SPEC.md 2): writes the answer the user sees: small talk for a conversation,
 * otherwise a summary of the plan's steps and results, saying plainly when a tool was
 * rejected, the run was cancelled by an approver, or it stopped on an error. Streams it as text and appends it to the
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
    const { model } = deps.resolveModel(deps.flow.defaultModel);
    const last = [...state.messages].reverse().find((m) => m.role === "user")?.content ?? "";
    const plan = state.plan;
    let text: string;
    let spent = { input_tokens: 0, output_tokens: 0 };
    try {
      if (plan?.status === "cancelled") {
        // Dismissed by an approver: say so plainly; no model call.
        const done = plan.steps.filter((s) => s.status === "completed").map((s) => `- ${s.task}`);
        text = `Cancelled. ${plan.failure_reason ?? "The run was cancelled."}${done.length ? `\nCompleted before that:\n${done.join("\n")}` : " Nothing else ran."}`;
      } else if (state.intent === "conversation" || !plan) {
        const res = await generateText({ model, system: conversationSystem(), prompt: last });
        text = res.text;
        spent = usageOf(res.usage);
      } else {
        const note = state.error?.message ?? plan.failure_reason ?? undefined;
        const steps = plan.steps.map((s) => ({ task: s.task, status: s.status, result: s.result ?? s.error ?? "" }));
        const res = await generateText({ model, system: finalizerSystem(), prompt: finalizerPrompt({ task: plan.query, steps, ...(note ? { note } : {}) }) });
        text = res.text;
        spent = usageOf(res.usage);
      }
    } catch (err) {
      text = `The run finished, but the final answer could not be written: ${err instanceof Error ? err.message : String(err)}`;
    }
    text = text.trim() || "(no answer)";
    emit(config, { type: "text", id: `final-${state.messages.length}`, text });
    // Small talk never fails, even after a failed task in the same thread.
    const failed = state.intent !== "conversation" && (Boolean(state.error) || plan?.status === "failed");
    return new Command({ goto: END, update: { token_usage: spent, messages: [{ role: "assistant", content: text }], final_answer: text, lifecycle: failed ? "FAILED" : "COMPLETED", current_agent: null } });
  };
}

/** The interrupt payload of a question to the user (SPEC.md 2 retries). */
export interface QuestionInterrupt {
  kind: "question";
  question: string;
  /** Set when the question is a Human input step's prompt (SPEC.md 1): the step it answers. */
  stepId?: string;
}
