import { DEFAULT_NETWORK_AND_MEMORY, type FlowDocument } from "../lib/flow/schema";
import { fileSafetyRules } from "./file-policy";

/**
 * "Workspace assistant" template: a supervisor, one executor agent with
 * the four file tools (and `rehydrate`, to read back long evicted outputs), and a policy:
 * list/read ALLOW, write AUTH_REQUIRED, delete BLOCKED.
 */
export const workspaceAssistant: FlowDocument = {
  version: 1,
  settings: {
    name: "Workspace assistant",
    description: "Reads, summarizes and writes files in the thread's workspace; writing needs your approval.",
    mode: "autonomous",
    model: "",
    limits: { maxIterations: 50, timeoutMs: 300_000 },
    ...DEFAULT_NETWORK_AND_MEMORY,
  },
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 120 }, data: { label: "Start" } },
    { id: "supervisor", type: "supervisor", position: { x: 200, y: 120 }, data: { name: "Supervisor", instructions: "Plan the task into steps and delegate each to the assistant." } },
    {
      id: "assistant",
      type: "agent",
      position: { x: 440, y: 120 },
      data: {
        name: "Assistant",
        role: "step_executor",
        instructions: "Carry out one step at a time with the file tools. Quote what you read; never invent file contents.",
        model: "",
        maxTries: 3,
        icon: "📁",
        color: "#2f7d5b",
      },
    },
    { id: "t-list", type: "tool", position: { x: 720, y: -60 }, data: { tool: "list_files" } },
    { id: "t-read", type: "tool", position: { x: 720, y: 40 }, data: { tool: "read_file" } },
    { id: "t-write", type: "tool", position: { x: 720, y: 140 }, data: { tool: "write_file" } },
    { id: "t-delete", type: "tool", position: { x: 720, y: 240 }, data: { tool: "delete_file" } },
    { id: "t-rehydrate", type: "tool", position: { x: 720, y: 340 }, data: { tool: "rehydrate" } },
    {
      id: "policy",
      type: "policy",
      position: { x: 440, y: 380 },
      data: {
        name: "File safety",
        rules: fileSafetyRules(),
      },
    },
    { id: "end", type: "end", position: { x: 240, y: 300 }, data: { label: "End" } },
  ],
  edges: [
    { id: "e-start", source: "start", target: "supervisor" },
    { id: "e-delegate", source: "supervisor", target: "assistant" },
    { id: "e-list", source: "assistant", target: "t-list" },
    { id: "e-read", source: "assistant", target: "t-read" },
    { id: "e-write", source: "assistant", target: "t-write" },
    { id: "e-delete", source: "assistant", target: "t-delete" },
    { id: "e-rehydrate", source: "assistant", target: "t-rehydrate" },
    { id: "e-end", source: "supervisor", target: "end" },
  ],
};
