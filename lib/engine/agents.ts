import type { AgentSpec } from "../flow/compile";
import type { AgentInfo } from "../models/prompts";
import type { EngineDeps } from "./deps";

/** What prompts know about an agent: its id, name, instructions and tool descriptions. */
export function agentInfo(deps: EngineDeps, agent: AgentSpec): AgentInfo {
  return {
    id: agent.id,
    name: agent.name,
    instructions: agent.instructions,
    tools: agent.tools.map((name) => ({ name, description: deps.tools.describe(name)?.description ?? "" })),
  };
}
