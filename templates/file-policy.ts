import type { PolicyRule } from "../lib/flow/schema";

/**
 * The file-safety rules both templates ship with (issue 2 item 5): list, read and rehydrate
 * ALLOW, write AUTH_REQUIRED, delete BLOCKED. A fresh array each call, so editing a flow
 * never changes another.
 */
export function fileSafetyRules(): PolicyRule[] {
  return [
    { tool: "list_files", decision: "ALLOW", risk: "low" },
    { tool: "read_file", decision: "ALLOW", risk: "low" },
    { tool: "write_file", decision: "AUTH_REQUIRED", risk: "medium" },
    { tool: "delete_file", decision: "BLOCKED", risk: "high" },
    { tool: "rehydrate", decision: "ALLOW", risk: "low" },
  ];
}
