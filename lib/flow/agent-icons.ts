/**
 * Agent icons as data (`AgentData.icon`): a name from a small set of lucide icons, drawn
 * as SVG by `components/ui/agent-icon.tsx`, so they never depend on the fonts installed
 * (an emoji shows as an empty box on a machine without an emoji font). Documents saved
 * before hold an emoji; each known one maps to its nearest icon, anything else to "bot".
 * Plain TypeScript: the run view, the editor and tests share it.
 */

/** The icons an agent may have, in the order the inspector offers them (lucide names). */
export const AGENT_ICON_NAMES = [
  "bot",
  "folder",
  "file-text",
  "search",
  "book-open",
  "pen-line",
  "list-checks",
  "brain",
  "shield-check",
  "globe",
  "code",
  "calculator",
  "mail",
  "banknote",
  "hand",
  "sparkles",
] as const;

/** One of {@link AGENT_ICON_NAMES}. */
export type AgentIconName = (typeof AGENT_ICON_NAMES)[number];

/** What each icon is called for people (the inspector's labels and screen readers). */
export const AGENT_ICON_LABEL: Readonly<Record<AgentIconName, string>> = {
  bot: "Robot",
  folder: "Folder",
  "file-text": "Document",
  search: "Magnifier",
  "book-open": "Book",
  "pen-line": "Pen",
  "list-checks": "Checklist",
  brain: "Brain",
  "shield-check": "Shield",
  globe: "Globe",
  code: "Code",
  calculator: "Calculator",
  mail: "Mail",
  banknote: "Banknote",
  hand: "Raised hand",
  sparkles: "Sparkles",
};

/** The emoji older documents and templates hold, by their nearest icon (variation selectors stripped). */
const LEGACY_EMOJI: Readonly<Record<string, AgentIconName>> = {
  "🤖": "bot",
  "📁": "folder",
  "📂": "folder",
  "🗂": "folder",
  "📄": "file-text",
  "📝": "file-text",
  "📃": "file-text",
  "🔍": "search",
  "🔎": "search",
  "📚": "book-open",
  "📖": "book-open",
  "✍": "pen-line",
  "🖊": "pen-line",
  "✏": "pen-line",
  "✅": "list-checks",
  "☑": "list-checks",
  "📋": "list-checks",
  "🧠": "brain",
  "🛡": "shield-check",
  "🌐": "globe",
  "💻": "code",
  "🧮": "calculator",
  "✉": "mail",
  "📧": "mail",
  "💶": "banknote",
  "💵": "banknote",
  "💰": "banknote",
  "🙋": "hand",
  "✋": "hand",
  "✨": "sparkles",
};

const NAMES: ReadonlySet<string> = new Set(AGENT_ICON_NAMES);

/** True when `icon` is one of {@link AGENT_ICON_NAMES} (not a legacy emoji). */
export function isAgentIconName(icon: string): icon is AgentIconName {
  return NAMES.has(icon);
}

/**
 * The icon to draw for an agent's `icon` field: the name itself when it is one of
 * {@link AGENT_ICON_NAMES}, the nearest icon of a known legacy emoji (with or without its
 * variation selector, e.g. "✍️" and "✍"), and "bot" for anything else (empty, unknown text).
 */
export function agentIconName(icon: string): AgentIconName {
  const trimmed = icon.trim();
  if (isAgentIconName(trimmed)) return trimmed;
  return LEGACY_EMOJI[trimmed.replace(/[\uFE0E\uFE0F]/g, "")] ?? "bot";
}
