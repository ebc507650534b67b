import { DEFAULT_NETWORK_AND_MEMORY, type FlowDocument } from "../lib/flow/schema";

/**
 * "Blank flow" template: the least a flow is drawn around. Start -> Supervisor -> End, and an
 * empty Policy (it applies to the whole flow and takes no edges). It has no Agent yet: the
 * Supervisor only delegates, so the problems panel asks for one (lib/flow/validate.ts
 * "missing_agent") until the user adds an Agent from the palette and connects the
 * Supervisor to it.
 */
/** What the Blank flow starts with, in words for the "New flow" dialog (its own description is left empty for the user). */
export const BLANK_FLOW_ABOUT = "Start, a Supervisor, End and an empty Policy: you add the agents and tools.";

export const blankFlow: FlowDocument = {
  version: 1,
  settings: {
    name: "Blank flow",
    description: "",
    mode: "autonomous",
    model: "",
    limits: { maxIterations: 50, timeoutMs: 300_000 },
    ...DEFAULT_NETWORK_AND_MEMORY,
  },
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 120 }, data: { label: "Start" } },
    {
      id: "supervisor",
      type: "supervisor",
      position: { x: 240, y: 120 },
      data: { name: "Supervisor", instructions: "Plan the task into steps and delegate each to the best agent." },
    },
    { id: "end", type: "end", position: { x: 520, y: 120 }, data: { label: "End" } },
    { id: "policy", type: "policy", position: { x: 240, y: 320 }, data: { name: "Policy", rules: [] } },
  ],
  edges: [
    { id: "e-start", source: "start", target: "supervisor" },
    { id: "e-end", source: "supervisor", target: "end" },
  ],
};
