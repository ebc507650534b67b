/**
 * Limits on request input, applied by the route wrapper before anything parses or walks it
 * (docs/security.md "Input limits").
 */

/** Largest JSON body a route accepts unless it declares its own cap: 1 MiB (bytes). */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;

/**
 * Cap for a whole flow document saved from the editor: 5 MiB (bytes). The templates are
 * about 3 KB; a flow at its schema's limits (many agents with 20,000-char instructions)
 * stays well under this.
 */
export const FLOW_DOCUMENT_MAX_BYTES = 5 * 1_048_576;

/**
 * Deepest nesting of arrays and objects a JSON body may have (containers, not bytes).
 * Flow documents nest about 8 deep and edited tool arguments a few levels; 64 leaves room
 * while keeping every recursive walk of the value (canonical JSON, zod) shallow.
 */
export const MAX_JSON_DEPTH = 64;

/** A byte count as people read it: "1 MB" for 1 MiB, "512 KB", or "900 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1_048_576 && bytes % 1_048_576 === 0) return `${bytes / 1_048_576} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}
