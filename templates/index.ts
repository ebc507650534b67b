import type { FlowDocument } from "../lib/flow/schema";
import { BLANK_FLOW_ABOUT, blankFlow } from "./blank";
import { guidedSummary } from "./guided-summary";
import { memoryAssistant } from "./memory-assistant";
import { researchBrief } from "./research-brief";
import { workspaceAssistant } from "./workspace-assistant";

/**
 * Template flows offered to every user (templates), by stable key: complete
 * flows that run as they are. The seed puts one of each into the demo workspace.
 */
export const TEMPLATES: Record<string, FlowDocument> = {
  "workspace-assistant": workspaceAssistant,
  "research-brief": researchBrief,
  "guided-summary": guidedSummary,
  "memory-assistant": memoryAssistant,
};

/**
 * What "New flow" starts from, by stable key, in the order the flows page offers them: the
 * Blank flow (Start, Supervisor, End and an empty Policy; it needs an Agent before it runs,
 * so it is not seeded), then every template of {@link TEMPLATES}.
 */
export const NEW_FLOW_TEMPLATES: Record<string, FlowDocument> = { blank: blankFlow, ...TEMPLATES };

/** What each starting point of {@link NEW_FLOW_TEMPLATES} gives, for the "New flow" dialog: the template's description, or what the Blank flow holds. */
export function starterAbout(key: string): string {
  return key === "blank" ? BLANK_FLOW_ABOUT : (NEW_FLOW_TEMPLATES[key]?.settings.description ?? "");
}

/**
 * The task the flows page suggests for a flow made from a template (what that template's
 * tools can do with the offline model); flows made by hand get the file-task default.
 */
export const TEMPLATE_TASKS: Readonly<Record<string, string>> = {
  "memory-assistant": "Remember that the staging server is staging.example.com",
  "research-brief": "Write a brief of notes.md and release-notes.md into brief.md",
};

/** The file task suggested for the file templates and for flows made by hand (imports, the API). */
export const FILE_TASK = "Summarize notes.md into summary.md";

/**
 * The task a flow's run form starts with: its template's task ({@link TEMPLATE_TASKS}), the
 * file task for other flows, and nothing for a flow made from the Blank flow (its agents are
 * the user's, so no task is theirs to suggest; the box shows only its placeholder).
 * @param templateKey the flow's `templateKey` (null for flows not made from a template).
 */
export function suggestedTask(templateKey: string | null | undefined): string {
  if (templateKey === "blank") return "";
  return (templateKey && TEMPLATE_TASKS[templateKey]) || FILE_TASK;
}
