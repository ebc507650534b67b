import type { Command } from "@langchain/langgraph";
import type { GraphUpdate } from "../state";

/**
 * Test support for the per-node tests in this folder. The fakes themselves (EngineDeps with
 * in-memory approvals and audit recorders, a recording `tools.run`, the Workspace assistant
 * compiled by `compileFlowSpec`, a scripted `MockLanguageModelV4`) and the full-state builder
 * `baseState` live in `../node-fixtures.ts`, which the graph-level tests already use; this
 * file re-exports them so there is one fake to keep in step with `EngineDeps`.
 */
export {
  assistantAgent,
  baseState,
  branchTask,
  type FakeDeps,
  fakeDeps,
  mirrored,
  plan,
  proposal,
  recorder,
  type Script,
  step,
  targets,
  textTurn,
  toolTurn,
} from "../node-fixtures";

/** The first target of a Command: a node name, or the node of its first `Send`. */
export function gotoOf(cmd: Command): string | undefined {
  const g = [cmd.goto].flat()[0];
  return typeof g === "string" ? g : (g as { node?: string } | undefined)?.node;
}

/** A Command's state update, typed for reading. */
export function updateOf(cmd: Command): GraphUpdate & Record<string, unknown> {
  return (cmd.update ?? {}) as GraphUpdate & Record<string, unknown>;
}
