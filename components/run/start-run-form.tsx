"use client";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { overTaskLimit, TaskLimit } from "./task-limit";

/**
 * Starts a run: creates a thread (POST /api/threads) on the flow's latest version, on the
 * version picked in the version menu, or on `pinnedVersion`, and opens its run view, which
 * sends the task, in full, as the first message. Runs record the version they ran (docs/architecture.md#flows-and-compilation).
 * A task over 4,000 chars is refused here (the button is disabled and says why), never cut (docs/runs.md#tasks).
 */
export function StartRunForm({
  flowId,
  defaultTask = "Summarize notes.md into summary.md",
  disabledReason,
  agents = [],
  versions = [],
  pinnedVersion,
}: {
  flowId: string;
  defaultTask?: string;
  disabledReason?: string;
  /** When given, the user may pick one agent (directed mode). */
  agents?: { id: string; name: string; icon: string }[];
  /** When given (and nothing is pinned), the user may pick the version to run; the default is the latest. */
  versions?: { version: number; message: string }[];
  /** Runs exactly this version (no version menu). */
  pinnedVersion?: number;
}) {
  const router = useRouter();
  const inputId = useId();
  const [task, setTask] = useState(defaultTask);
  const [agentId, setAgentId] = useState("");
  const [picked, setPicked] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const menu = pinnedVersion === undefined ? [...versions].sort((a, b) => b.version - a.version) : [];
  const version = pinnedVersion ?? (picked ? Number(picked) : undefined);

  const over = overTaskLimit(task);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (over) return;
    setPending(true);
    setError(null);
    try {
      const res = await fetch("/api/threads", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ flowId, task, ...(version === undefined ? {} : { version }) }),
      });
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
      <label htmlFor={inputId}>Task</label>
      <input id={inputId} value={task} onChange={(e) => setTask(e.target.value)} data-testid="run-task" placeholder="e.g. Summarize notes.md into summary.md" aria-invalid={over} />
      {menu.length > 0 ? (
        <select aria-label="Version to run" value={picked} onChange={(e) => setPicked(e.target.value)} data-testid="run-version">
          <option value="">{`Latest (v${menu[0]?.version})`}</option>
          {menu.map((v) => (
            <option key={v.version} value={String(v.version)}>
              {`v${v.version}${v.message ? ` — ${v.message}` : ""}`}
            </option>
          ))}
        </select>
      ) : null}
      {agents.length > 0 ? (
        <select aria-label="Who works on it" value={agentId} onChange={(e) => setAgentId(e.target.value)} data-testid="run-agent">
          <option value="">Supervisor plans (autonomous)</option>
          {agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name} only (directed)
            </option>
          ))}
        </select>
      ) : null}
      <button type="submit" disabled={pending || !task.trim() || over || Boolean(disabledReason)} title={disabledReason} data-testid="run-start">
        {pending ? "Starting…" : pinnedVersion === undefined ? "Run" : `Run v${pinnedVersion}`}
      </button>
      <TaskLimit text={task} field="task" testId="run-task-limit" />
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
