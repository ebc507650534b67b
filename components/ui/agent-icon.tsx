import {
  Banknote,
  BookOpen,
  Bot,
  Brain,
  Calculator,
  Code,
  FileText,
  Folder,
  Globe,
  Hand,
  ListChecks,
  type LucideIcon,
  type LucideProps,
  Mail,
  PenLine,
  Search,
  ShieldCheck,
  Sparkles,
} from "lucide-react";
import { AGENT_ICON_LABEL, type AgentIconName, agentIconName } from "@/lib/flow/agent-icons";

/** The lucide component of each agent icon name (lib/flow/agent-icons.ts). */
export const AGENT_ICONS: Readonly<Record<AgentIconName, LucideIcon>> = {
  bot: Bot,
  folder: Folder,
  "file-text": FileText,
  search: Search,
  "book-open": BookOpen,
  "pen-line": PenLine,
  "list-checks": ListChecks,
  brain: Brain,
  "shield-check": ShieldCheck,
  globe: Globe,
  code: Code,
  calculator: Calculator,
  mail: Mail,
  banknote: Banknote,
  hand: Hand,
  sparkles: Sparkles,
};

export interface AgentIconProps extends Omit<LucideProps, "ref"> {
  /** The agent's `icon` field: a lucide name such as "bot", or a legacy emoji ("📁"). */
  icon: string;
  /** Text for screen readers; omitted, the icon is decorative (`aria-hidden`). */
  label?: string;
}

/**
 * An agent's icon as an SVG (lucide), whatever the fonts installed: names and legacy
 * emoji resolve through `agentIconName`. 1em square by default, so it sits in text.
 */
export function AgentIcon({ icon, label, size = "1em", ...rest }: AgentIconProps) {
  const name = agentIconName(icon);
  const Icon = AGENT_ICONS[name];
  return (
    <Icon size={size} data-icon={name} focusable="false" {...(label ? { role: "img", "aria-label": label } : { "aria-hidden": true })} style={{ verticalAlign: "-0.125em", flexShrink: 0 }} {...rest} />
  );
}

/** The people's name of the icon an agent's `icon` field shows, e.g. "Folder" for "📁". */
export function agentIconLabel(icon: string): string {
  return AGENT_ICON_LABEL[agentIconName(icon)];
}
