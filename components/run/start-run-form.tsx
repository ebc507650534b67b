"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";

/**
 * Starts a run: creates a thread on the flow's latest version (POST /api/threads) and opens
 * its run view, which sends the task as the first message.
 */
export function StartRunForm({
  flowId,
  defaultTask = "Summarize notes.md into summary.md",
  disabledReason,
  agents = [],
}: {
  flowId: string;
  defaultTask?: string;
  disabledReason?: string;
  /** When given, the user may pick one agent (directed mode, SPEC.md 1). */
  agents?: { id: string; name: string; icon: string }[];
}) {
  const router = useRouter();
  const [task, setTask] = useState(defaultTask);
  const [agentId, setAgentId] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setPending(true);
    setError(null);
    try {
      const res = await fetch("/api/threads", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ flowId, task }) });
      const body = await res.json();
      if (!res.ok) throw new Error(body?.error?.message ?? `HTTP ${res.status}`);
      router.push(`/threads/${body.threadId}${agentId ? `?agent=${encodeURIComponent(agentId)}` : ""}`);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} className="run-form" data-testid="start-run-form">
      <label htmlFor={`task-${flowId}`}>Task</label>
      <input id={`task-${flowId}`} value={task} onChange={(e) => setTask(e.target.value)} data-testid="run-task" placeholder="e.g. Summarize notes.md into summary.md" />
      {agents.length > 0 ? (
        <select aria-label="Who works on it" value={agentId} onChange={(e) => setAgentId(e.target.value)} data-testid="run-agent">
          <option value="">Supervisor plans (autonomous)</option>
          {agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.icon} {a.name} only (directed)
            </option>
          ))}
        </select>
      ) : null}
      <button type="submit" disabled={pending || !task.trim() || Boolean(disabledReason)} title={disabledReason} data-testid="run-start">
        {pending ? "Starting…" : "Run"}
      </button>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
