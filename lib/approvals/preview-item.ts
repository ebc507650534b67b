/**
 * What `GET /api/approvals/:approvalId/preview` returns, kept free of server code so client
 * components import it: the tool's input schema (for the edit form) and, for a call that
 * writes a file, the file as it is now in the thread's workspace (for the line diff).
 */

/**
 * Largest current file the preview sends for a diff, in bytes (256 kB). Bigger files are
 * reported with their size only: a diff of them would not be readable on a card, and the
 * whole text would travel to every approver who opens the card.
 */
export const PREVIEW_MAX_BYTES = 256_000;

/**
 * The file a write would replace, as it is now:
 * - `missing`: no such file, the write creates it;
 * - `text`: a UTF-8 text file of at most {@link PREVIEW_MAX_BYTES}, with its content;
 * - `too_large`: bigger than {@link PREVIEW_MAX_BYTES} (`sizeBytes`, `limitBytes` in bytes);
 * - `binary`: not UTF-8 text (a NUL byte or an invalid sequence);
 * - `directory`: the path names a folder (the write would fail);
 * - `refused`: the path is refused by the workspace sandbox (e.g. it leaves the workspace);
 *   `message` says why, as the tool would.
 */
export type CurrentFile =
  | { state: "missing" }
  | { state: "text"; content: string; sizeBytes: number }
  | { state: "too_large"; sizeBytes: number; limitBytes: number }
  | { state: "binary"; sizeBytes: number }
  | { state: "directory" }
  | { state: "refused"; message: string };

/** Body of `GET /api/approvals/:approvalId/preview`. */
export interface ApprovalPreview {
  approvalId: string;
  toolName: string;
  /**
   * JSON Schema (draft 2020-12) of the tool's input, as the tool registry declares it
   * (zod's `z.toJSONSchema` for built-ins, the server's own schema for MCP tools); null when
   * the tool is unknown to the workspace now.
   */
  inputSchema: Record<string, unknown> | null;
  /**
   * For a tool that writes a file: the path looked at (the proposed one, or the `path`
   * query) and that file now; null for other tools.
   */
  file: { path: string; current: CurrentFile } | null;
}
