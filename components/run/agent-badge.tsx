import { AgentIcon } from "@/components/ui/agent-icon";

/** An agent's identity as the run view shows it (current agent identity). */
export interface AgentIdentity {
  id: string;
  name: string;
  /** A lucide icon name ("bot") or a legacy emoji, drawn by `AgentIcon` (lib/flow/agent-icons.ts). */
  icon: string;
  /** `#rrggbb`. */
  color: string;
}

/**
 * An agent identity badge: icon and name on the agent's colour, on every step, handoff and
 * tool call of the timeline. The icon is an SVG, so it shows without an emoji font.
 */
export function AgentBadge({ agent }: { agent: AgentIdentity }) {
  return (
    <span className="badge agent" data-testid="agent-badge" data-agent={agent.id} title={`Agent ${agent.name}`} style={{ border: `1px solid ${agent.color}`, background: `${agent.color}22` }}>
      <AgentIcon icon={agent.icon} /> {agent.name}
    </span>
  );
}
