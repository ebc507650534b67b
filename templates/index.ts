import type { FlowDocument } from "../lib/flow/schema";
import { guidedSummary } from "./guided-summary";
import { memoryAssistant } from "./memory-assistant";
import { researchBrief } from "./research-brief";
import { workspaceAssistant } from "./workspace-assistant";

/** Template flows offered to every user (SPEC.md 1: templates), by stable key. */
export const TEMPLATES: Record<string, FlowDocument> = {
  "workspace-assistant": workspaceAssistant,
  "research-brief": researchBrief,
  "guided-summary": guidedSummary,
  "memory-assistant": memoryAssistant,
};

/**
 * The task the flows page suggests for a flow made from a template (what that template's
 * tools can do with the offline model); flows made by hand get the file-task default.
 */
export const TEMPLATE_TASKS: Readonly<Record<string, string>> = {
  "memory-assistant": "Remember that the staging server is staging.example.com",
};
