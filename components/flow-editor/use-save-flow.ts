"use client";

import { useCallback, useState } from "react";
import { z } from "zod";
import { FlowDocument } from "@/lib/flow/schema";

/** One problem with the document, by field path (e.g. `nodes.2.data.name`). */
export interface SaveIssue {
  path: string;
  message: string;
}

export type SaveState = { status: "idle" } | { status: "saving" } | { status: "saved"; version: number } | { status: "error"; message: string; issues: SaveIssue[] };

const SavedBody = z.object({ version: z.number().int() });
const ErrorBody = z.object({
  error: z.object({
    code: z.string(),
    reason: z.string().optional(),
    message: z.string(),
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  }),
});

/**
 * Saving a flow as a new version: validates the document with the shared schema, then
 * POSTs `{ document, message }` to `/api/flows/{flowId}/versions` (201 `{ version }`, or
 * `{ error: { code, reason, message, issues? } }`). Never throws; failures land in `state`.
 */
export function useSaveFlow(flowId: string, initialVersion: number) {
  const [version, setVersion] = useState(initialVersion);
  const [state, setState] = useState<SaveState>({ status: "idle" });

  /** Resolves to true when the server stored a new version. */
  const save = useCallback(
    async (document: FlowDocument, message: string): Promise<boolean> => {
      const parsed = FlowDocument.safeParse(document);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message }));
        setState({ status: "error", message: "The flow is not valid; nothing was saved.", issues });
        return false;
      }
      setState({ status: "saving" });
      try {
        const res = await fetch(`/api/flows/${encodeURIComponent(flowId)}/versions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ document: parsed.data, message }),
        });
        const body: unknown = await res.json().catch(() => null);
        const saved = res.ok ? SavedBody.safeParse(body) : null;
        if (saved?.success) {
          setVersion(saved.data.version);
          setState({ status: "saved", version: saved.data.version });
          return true;
        }
        const error = ErrorBody.safeParse(body);
        setState(
          error.success
            ? { status: "error", message: error.data.error.message, issues: error.data.error.issues ?? [] }
            : { status: "error", message: `Saving failed (HTTP ${res.status}).`, issues: [] },
        );
      } catch {
        setState({ status: "error", message: "Saving failed: the server could not be reached.", issues: [] });
      }
      return false;
    },
    [flowId],
  );

  const dismissError = useCallback(() => setState({ status: "idle" }), []);

  return { version, state, save, dismissError };
}
