import { DEFAULT_NETWORK_AND_MEMORY, type FlowDocument } from "../lib/flow/schema";

/**
 * "Memory assistant" template: one agent with the memory tools (`remember`,
 * `recall`), `run_javascript` (QuickJS sandbox), `http_request` and the read-only file tools,
 * governed by the *Memory and network* policy: remembering, recalling, scripts and reads
 * ALLOW; GET/HEAD requests ALLOW (only to hosts the flow's network allowlist names, which is
 * empty until you add one in Flow settings); any other request AUTH_REQUIRED.
 */
export const memoryAssistant: FlowDocument = {
  version: 1,
  settings: {
    name: "Memory assistant",
    description: "Remembers and recalls facts of the workspace, runs JavaScript in a sandbox and fetches from allowed hosts.",
    mode: "autonomous",
    model: "",
    limits: { maxIterations: 50, timeoutMs: 300_000 },
    ...DEFAULT_NETWORK_AND_MEMORY,
  },
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 140 }, data: { label: "Start" } },
    { id: "supervisor", type: "supervisor", position: { x: 200, y: 140 }, data: { name: "Supervisor", instructions: "Plan the task into steps and delegate each to the helper." } },
    {
      id: "helper",
      type: "agent",
      position: { x: 440, y: 140 },
      data: {
        name: "Helper",
        role: "step_executor",
        instructions:
          "Carry out one step at a time. Remember facts the user asks you to keep with `remember`; look things up with `recall` before saying you do not know; compute with `run_javascript`; fetch only from allowed hosts.",
        model: "",
        maxTries: 3,
        icon: "🧠",
        color: "#8a4fbf",
      },
    },
    { id: "t-remember", type: "tool", position: { x: 720, y: -80 }, data: { tool: "remember" } },
    { id: "t-recall", type: "tool", position: { x: 720, y: 10 }, data: { tool: "recall" } },
    { id: "t-js", type: "tool", position: { x: 720, y: 100 }, data: { tool: "run_javascript" } },
    { id: "t-http", type: "tool", position: { x: 720, y: 190 }, data: { tool: "http_request" } },
    { id: "t-list", type: "tool", position: { x: 720, y: 280 }, data: { tool: "list_files" } },
    { id: "t-read", type: "tool", position: { x: 720, y: 370 }, data: { tool: "read_file" } },
    {
      id: "policy",
      type: "policy",
      position: { x: 440, y: 400 },
      data: {
        name: "Memory and network",
        rules: [
          { tool: "remember", decision: "ALLOW", risk: "low", permission: "any", match: [] },
          { tool: "recall", decision: "ALLOW", risk: "low", permission: "any", match: [] },
          { tool: "run_javascript", decision: "ALLOW", risk: "low", permission: "any", match: [] },
          { tool: "http_request", decision: "ALLOW", risk: "low", permission: "any", match: [{ kind: "regex", field: "method", pattern: "^(GET|HEAD)$" }] },
          { tool: "http_request", decision: "AUTH_REQUIRED", risk: "medium", permission: "any", match: [] },
          { tool: "list_files", decision: "ALLOW", risk: "low", permission: "any", match: [] },
          { tool: "read_file", decision: "ALLOW", risk: "low", permission: "any", match: [] },
        ],
      },
    },
    { id: "end", type: "end", position: { x: 240, y: 320 }, data: { label: "End" } },
  ],
  edges: [
    { id: "e-start", source: "start", target: "supervisor" },
    { id: "e-delegate", source: "supervisor", target: "helper" },
    { id: "e-remember", source: "helper", target: "t-remember" },
    { id: "e-recall", source: "helper", target: "t-recall" },
    { id: "e-js", source: "helper", target: "t-js" },
    { id: "e-http", source: "helper", target: "t-http" },
    { id: "e-list", source: "helper", target: "t-list" },
    { id: "e-read", source: "helper", target: "t-read" },
    { id: "e-end", source: "supervisor", target: "end" },
  ],
};
