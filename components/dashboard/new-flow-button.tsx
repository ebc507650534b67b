"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";

/** A workspace a new flow may go to. */
export interface FlowTarget {
  id: string;
  name: string;
}

/**
 * Creates a flow from a template (POST /api/flows) and opens it in the editor.
 * @param workspaceId where the flow goes; omitted: the user's own workspace (created if needed).
 */
export function NewFlowButton({ template, label, workspaceId }: { template: string; label: string; workspaceId?: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function create() {
    setPending(true);
    setError(null);
    try {
      const res = await fetch("/api/flows", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ template, ...(workspaceId ? { workspaceId } : {}) }) });
      const body = await res.json().catch(() => null);
      if (!res.ok) {
        setError(body?.error?.message ?? `HTTP ${res.status}`);
        setPending(false);
        return;
      }
      router.push(`/flows/${body.flowId}`);
    } catch {
      setError("Could not reach the server; try again.");
      setPending(false);
    }
  }
  return (
    <span>
      <button type="button" className="secondary" onClick={create} disabled={pending} data-testid={`new-flow-${template}`}>
        {pending ? "Creating…" : `New flow: ${label}`}
      </button>
      {error ? <span className="error small"> {error}</span> : null}
    </span>
  );
}

/**
 * The "New flow" buttons, one per template (docs/security.md "Membership"). When the user may
 * create flows in more than one workspace, a menu names the workspace the flow goes to,
 * defaulting to their own; a new flow never lands elsewhere without the user picking it.
 * @param own the user's own workspace, or null when it does not exist yet (the first flow creates it).
 * @param others other workspaces where the user may edit flows.
 */
export function NewFlowButtons({ templates, own, others }: { templates: { key: string; label: string }[]; own: FlowTarget | null; others: FlowTarget[] }) {
  const choices = [{ id: own?.id ?? "", name: own?.name ?? "A new workspace of your own" }, ...others];
  const [workspaceId, setWorkspaceId] = useState(choices[0]?.id ?? "");
  return (
    <>
      {choices.length > 1 ? (
        <label className="small">
          Create in{" "}
          <select value={workspaceId} onChange={(e) => setWorkspaceId(e.target.value)} data-testid="new-flow-workspace">
            {choices.map((c) => (
              <option key={c.id || "own"} value={c.id}>
                {c.name}
                {c.id === (own?.id ?? "") ? " (yours)" : ""}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {templates.map((t) => (
        <NewFlowButton key={t.key} template={t.key} label={t.label} {...(workspaceId ? { workspaceId } : {})} />
      ))}
    </>
  );
}
