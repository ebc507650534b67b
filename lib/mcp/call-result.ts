import { AppError } from "../errors";

/** The parts of an MCP `CallToolResult` (MCP 2025-06-18 `tools/call`) the product reads. */
export interface McpCallResult {
  content?: unknown[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** One content block as text: text as is; other kinds as a short marker (binary data is not passed to the model). */
function blockText(block: unknown): string {
  if (typeof block !== "object" || block === null) return "";
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case "text":
      return typeof b.text === "string" ? b.text : "";
    case "image":
    case "audio":
      return `[${b.type} ${typeof b.mimeType === "string" ? b.mimeType : ""}, ${typeof b.data === "string" ? b.data.length : 0} base64 chars not shown]`;
    case "resource": {
      const r = (b.resource ?? {}) as Record<string, unknown>;
      return typeof r.text === "string" ? r.text : `[resource ${String(r.uri ?? "")}, binary, not shown]`;
    }
    case "resource_link":
      return `[resource ${String(b.uri ?? "")}${typeof b.name === "string" ? ` (${b.name})` : ""}]`;
    default:
      return `[${String(b.type)} content not shown]`;
  }
}

/**
 * The output of an MCP tool call as the agent sees it: `structuredContent` when
 * the server sent it, else the text of its content blocks joined by blank lines.
 * @throws AppError unprocessable ("mcp_tool_error") with the server's message when the
 *   result is an error (`isError`); the gateway turns it into an error result.
 */
export function callOutput(result: McpCallResult, toolName: string): unknown {
  const text = (result.content ?? [])
    .map(blockText)
    .filter((t) => t !== "")
    .join("\n\n");
  if (result.isError) throw new AppError("unprocessable", "mcp_tool_error", `Tool "${toolName}" reported an error: ${text || "(no message)"}`);
  if (result.structuredContent !== undefined && result.structuredContent !== null) return result.structuredContent;
  return text;
}
