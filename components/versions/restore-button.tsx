"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";

/**
 * "Restore as new version": POSTs /api/flows/{flowId}/versions/{version}/restore (owners
 * only; the server saves the version's document as the next version) and then opens the
 * editor on it. Errors (e.g. 409 when someone saved at the same time) are shown inline.
 */
export function RestoreButton({ flowId, version }: { flowId: string; version: number }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function restore() {
    setPending(true);
    setError(null);
    try {
      const res = await fetch(`/api/flows/${encodeURIComponent(flowId)}/versions/${version}/restore`, { method: "POST" });
      const body = await res.json().catch(() => null);
      if (!res.ok) throw new Error(body?.error?.message ?? `Restoring failed (HTTP ${res.status}).`);
      router.push(`/flows/${encodeURIComponent(flowId)}`);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setPending(false);
    }
  }

  return (
    <>
      <button type="button" className="secondary" onClick={restore} disabled={pending} data-testid={`restore-version-${version}`}>
        {pending ? "Restoring…" : "Restore as new version"}
      </button>
      {error ? (
        <p className="error small" role="alert" data-testid="restore-error">
          {error}
        </p>
      ) : null}
    </>
  );
}
