import type { PolicyRule } from "../lib/flow/schema";

/**
 * The file-safety rules both templates ship with: list, read and rehydrate
 * ALLOW, write AUTH_REQUIRED, delete BLOCKED, for any permission level and any arguments.
 * A fresh array each call, so editing a flow never changes another.
 */
export function fileSafetyRules(): PolicyRule[] {
  return [
    { tool: "list_files", decision: "ALLOW", risk: "low", permission: "any", match: [] },
    { tool: "read_file", decision: "ALLOW", risk: "low", permission: "any", match: [] },
    { tool: "write_file", decision: "AUTH_REQUIRED", risk: "medium", permission: "any", match: [] },
    { tool: "delete_file", decision: "BLOCKED", risk: "high", permission: "any", match: [] },
    { tool: "rehydrate", decision: "ALLOW", risk: "low", permission: "any", match: [] },
  ];
}
