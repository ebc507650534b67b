import type { EditorNode, NodeKind } from "./react-flow";

/**
 * What the editor's palette offers (Start, End, Agent, Supervisor/Planner,
 * Reviewer, Tool, Policy, Human input, Router/condition) and the node each item creates.
 * A Reviewer is an Agent with the seeds' `reviewer` role, so the document keeps one agent
 * kind and the engine one executor.
 */

/** Each node kind's name for people (problems, diffs, the palette). */
export const NODE_KIND_LABEL: Record<NodeKind, string> = {
  start: "Start",
  end: "End",
  supervisor: "Supervisor",
  agent: "Agent",
  tool: "Tool",
  policy: "Policy",
  human_input: "Human input",
  router: "Router",
};

/** A palette item's stable key (also its data-testid suffix). */
export type PaletteKey = "start" | "end" | "agent" | "supervisor" | "reviewer" | "tool" | "policy" | "human_input" | "router";

/** One palette entry: what it is called, what it creates, and a one-line description. */
export interface PaletteItem {
  key: PaletteKey;
  kind: NodeKind;
  label: string;
  description: string;
}

/** The palette, in the order it is shown. */
export const PALETTE: readonly PaletteItem[] = [
  { key: "start", kind: "start", label: "Start", description: "Where a run enters the flow." },
  { key: "supervisor", kind: "supervisor", label: "Supervisor / Planner", description: "Plans the task into steps and delegates them." },
  { key: "agent", kind: "agent", label: "Agent", description: "An LLM with instructions and tools that carries out steps." },
  { key: "reviewer", kind: "agent", label: "Reviewer", description: "An agent that checks the work of others." },
  { key: "tool", kind: "tool", label: "Tool", description: "Binds a catalog tool to the agent connected to it." },
  { key: "policy", kind: "policy", label: "Policy", description: "Risk rules: ALLOW, AUTH_REQUIRED or BLOCKED per tool." },
  { key: "human_input", kind: "human_input", label: "Human input", description: "A step the user answers; the run waits for them." },
  { key: "router", kind: "router", label: "Router / condition", description: "Sends matching tasks straight to one agent." },
  { key: "end", kind: "end", label: "End", description: "Where the Supervisor finishes." },
];

/**
 * A fresh id for a node of `key`: `${key}-${n}` with the smallest n >= 1 not in `taken`
 * (ids must match /^[A-Za-z0-9_-]+$/, lib/flow/schema.ts).
 */
export function nextNodeId(key: string, taken: ReadonlySet<string>): string {
  const stem = key.replace(/[^A-Za-z0-9_-]/g, "-");
  let n = 1;
  while (taken.has(`${stem}-${n}`)) n++;
  return `${stem}-${n}`;
}

/**
 * A new node of a palette item at `position` (flow coordinates), with data that passes
 * the schema (so a dropped node is valid until the user edits it), id fresh against
 * `taken`. `tool` names the catalog tool a Tool node binds (default `read_file`).
 */
export function createNode(key: PaletteKey, position: { x: number; y: number }, taken: ReadonlySet<string>, tool = "read_file"): EditorNode {
  const id = nextNodeId(key, taken);
  const at = { id, position };
  switch (key) {
    case "start":
      return { ...at, type: "start", data: { label: "Start" } };
    case "end":
      return { ...at, type: "end", data: { label: "End" } };
    case "supervisor":
      return { ...at, type: "supervisor", data: { name: "Supervisor", instructions: "Plan the task into steps and delegate each to the best agent." } };
    case "agent":
      return {
        ...at,
        type: "agent",
        data: { name: "Agent", role: "step_executor", instructions: "", model: "", maxTries: 3, icon: "bot", color: "#5b3cc4" },
      };
    case "reviewer":
      return {
        ...at,
        type: "agent",
        data: {
          name: "Reviewer",
          role: "reviewer",
          instructions: "Check the work of the previous steps against the task and say what is wrong, quoting it.",
          model: "",
          maxTries: 3,
          icon: "search",
          color: "#8a4baf",
        },
      };
    case "tool":
      return { ...at, type: "tool", data: { tool } };
    case "policy":
      return { ...at, type: "policy", data: { name: "Policy", rules: [] } };
    case "human_input":
      return { ...at, type: "human_input", data: { name: "Ask the user", prompt: "What should I know before I start?" } };
    case "router":
      return { ...at, type: "router", data: { name: "Router", routes: [] } };
  }
}
