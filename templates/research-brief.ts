import { DEFAULT_NETWORK_AND_MEMORY, type FlowDocument } from "../lib/flow/schema";
import { fileSafetyRules } from "./file-policy";

/**
 * "Research brief" template: three agents with different instructions and tools.
 * The supervisor plans; the Researcher reads the sources (steps with no dependencies
 * between them), the Writer writes the brief citing a source for each point (its write
 * needs approval), the Reviewer reads the brief and checks each point against the sources,
 * answering "Verdict: approved" or "Verdict: changes needed" with one line per unsupported
 * point or unused source (the format the Supervisor acts on).
 */
export const researchBrief: FlowDocument = {
  version: 1,
  settings: {
    name: "Research brief",
    description: "A researcher reads the sources, a writer drafts the brief, a reviewer checks it. Writing needs your approval.",
    mode: "autonomous",
    model: "",
    limits: { maxIterations: 50, timeoutMs: 300_000 },
    ...DEFAULT_NETWORK_AND_MEMORY,
  },
  nodes: [
    { id: "start", type: "start", position: { x: 0, y: 200 }, data: { label: "Start" } },
    {
      id: "supervisor",
      type: "supervisor",
      position: { x: 180, y: 200 },
      data: {
        name: "Supervisor",
        instructions:
          "Assign reading to the Researcher (one step per source file), writing to the Writer (its step depends on every reading step) and the final check to the Reviewer (its step depends on the reading steps and the writing step, so it sees the sources).",
      },
    },
    {
      id: "researcher",
      type: "agent",
      position: { x: 460, y: 40 },
      data: {
        name: "Researcher",
        role: "context_builder",
        instructions: "Read the source files and report what they say, quoting them. Do not write files.",
        model: "",
        maxTries: 3,
        icon: "📚",
        color: "#1565c0",
      },
    },
    {
      id: "writer",
      type: "agent",
      position: { x: 460, y: 200 },
      data: {
        name: "Writer",
        role: "step_executor",
        instructions:
          'Write the brief from the researcher\'s findings as a titled Markdown list of short points. Use only what the sources say, use every source you were given, and end each point with the file it comes from, e.g. "(source: notes.md)". When your context holds "Reviewer feedback", rewrite the brief: add points from every unused source it names and leave out every unsupported point.',
        model: "",
        maxTries: 3,
        icon: "✍️",
        color: "#2e7d32",
      },
    },
    {
      id: "reviewer",
      type: "agent",
      position: { x: 460, y: 360 },
      data: {
        name: "Reviewer",
        role: "reviewer",
        instructions:
          'Review the written brief: read it and check each point against the sources in your context (read a cited source yourself if it is not there). Reply with a first line that is exactly "Verdict: approved" or "Verdict: changes needed", then one line per problem: "- Unsupported: <the point>" for a point that no source (or not the source it cites) says, "- Unused source: <file>" for a source that no point uses. Approve only when there is no such line.',
        model: "",
        maxTries: 2,
        icon: "🔎",
        color: "#ef6c00",
      },
    },
    { id: "t-list", type: "tool", position: { x: 760, y: 0 }, data: { tool: "list_files" } },
    { id: "t-read", type: "tool", position: { x: 760, y: 100 }, data: { tool: "read_file" } },
    { id: "t-write", type: "tool", position: { x: 760, y: 220 }, data: { tool: "write_file" } },
    { id: "t-read-review", type: "tool", position: { x: 760, y: 360 }, data: { tool: "read_file" } },
    { id: "t-rehydrate", type: "tool", position: { x: 960, y: 40 }, data: { tool: "rehydrate" } },
    {
      id: "policy",
      type: "policy",
      position: { x: 180, y: 380 },
      data: {
        name: "Brief safety",
        rules: fileSafetyRules(),
      },
    },
    { id: "end", type: "end", position: { x: 180, y: 60 }, data: { label: "End" } },
  ],
  edges: [
    { id: "e-start", source: "start", target: "supervisor" },
    { id: "e-researcher", source: "supervisor", target: "researcher" },
    { id: "e-writer", source: "supervisor", target: "writer" },
    { id: "e-reviewer", source: "supervisor", target: "reviewer" },
    { id: "e-r-list", source: "researcher", target: "t-list" },
    { id: "e-r-read", source: "researcher", target: "t-read" },
    { id: "e-r-rehydrate", source: "researcher", target: "t-rehydrate" },
    { id: "e-w-write", source: "writer", target: "t-write" },
    { id: "e-v-read", source: "reviewer", target: "t-read-review" },
    { id: "e-end", source: "supervisor", target: "end" },
  ],
};
