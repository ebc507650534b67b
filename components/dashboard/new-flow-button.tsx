"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";

/** Creates a flow from a template (POST /api/flows) and opens it in the editor. */
export function NewFlowButton({ template, label }: { template: string; label: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function create() {
    setPending(true);
    setError(null);
    const res = await fetch("/api/flows", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ template }) });
    const body = await res.json();
    if (!res.ok) {
      setError(body?.error?.message ?? `HTTP ${res.status}`);
      setPending(false);
      return;
    }
    router.push(`/flows/${body.flowId}`);
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
