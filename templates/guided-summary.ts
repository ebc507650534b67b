import { DEFAULT_NETWORK_AND_MEMORY, type FlowDocument } from "../lib/flow/schema";
import { fileSafetyRules } from "./file-policy";

/**
 * "Guided summary" template (a template with a human-input step): before any work
 * the run asks the user who the summary is for (a Human input step; the run waits with
 * status awaiting_input), then the Writer reads and writes with the user's answer in hand
 * (the audience named in the title, the focus first); writing needs approval. A Router
 * sends "list …" tasks straight to the Writer without a plan or a question.
 */
export const guidedSummary: FlowDocument = {
  version: 1,
  settings: {
    name: "Guided summary",
    description: "Asks who the summary is for, then reads and writes it. Listing files skips the question. Writing needs your approval.",
    mode: "autonomous",
    model: "",
    limits: { maxIterations: 50, timeoutMs: 300_000 },
    ...DEFAULT_NETWORK_AND_MEMORY,
  },
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 160 }, data: { label: "Start" } },
    {
      id: "router",
      type: "router",
      position: { x: 170, y: 160 },
      data: { name: "Quick requests", routes: [{ match: "regex", value: "^\\s*list\\b", target: "writer" }] },
    },
    {
      id: "supervisor",
      type: "supervisor",
      position: { x: 380, y: 80 },
      data: {
        name: "Supervisor",
        instructions: "First ask the user who the summary is for and what it should focus on, then plan the reading and writing for the Writer; every step after the question depends on its answer.",
      },
    },
    {
      id: "audience",
      type: "human_input",
      position: { x: 640, y: -60 },
      data: { name: "Audience", prompt: "Who is this summary for, and what should it focus on?" },
    },
    {
      id: "writer",
      type: "agent",
      position: { x: 640, y: 160 },
      data: {
        name: "Writer",
        role: "step_executor",
        instructions:
          "Read what the step names and write for the audience the user gave: name that audience in the summary's title and put what they asked you to focus on first, in a section of its own. Keep the source's headings as sections, its lists as lists, and every decision, risk and action item with its owner and date. Quote what you read; never invent file contents.",
        model: "",
        maxTries: 3,
        icon: "✍️",
        color: "#b0522d",
      },
    },
    { id: "t-list", type: "tool", position: { x: 900, y: 60 }, data: { tool: "list_files" } },
    { id: "t-read", type: "tool", position: { x: 900, y: 160 }, data: { tool: "read_file" } },
    { id: "t-write", type: "tool", position: { x: 900, y: 260 }, data: { tool: "write_file" } },
    { id: "policy", type: "policy", position: { x: 640, y: 380 }, data: { name: "File safety", rules: fileSafetyRules() } },
    { id: "end", type: "end", position: { x: 400, y: 320 }, data: { label: "End" } },
  ],
  edges: [
    { id: "e-start", source: "start", target: "router" },
    { id: "e-route-writer", source: "router", target: "writer" },
    { id: "e-router-supervisor", source: "router", target: "supervisor" },
    { id: "e-ask", source: "supervisor", target: "audience" },
    { id: "e-delegate", source: "supervisor", target: "writer" },
    { id: "e-list", source: "writer", target: "t-list" },
    { id: "e-read", source: "writer", target: "t-read" },
    { id: "e-write", source: "writer", target: "t-write" },
    { id: "e-end", source: "supervisor", target: "end" },
  ],
};
