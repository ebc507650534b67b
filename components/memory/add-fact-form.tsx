"use client";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import type { FactView } from "@/lib/memory/types";
import { notify } from "@/components/ui/notify";
import { callApi, type FieldIssue } from "./api";
import styles from "./memory.module.css";

type Field = "content" | "tags" | "agentRole";

/** Tags as typed ("format, Reports ,") -> ["format", "reports"]. */
function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(",")
        .map((t) => t.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
}

/** The field a 422 issue belongs to ("tags.0" -> tags), or null for the form as a whole. */
function fieldOf(issue: FieldIssue): Field | null {
  const head = issue.path.split(".")[0];
  return head === "content" || head === "tags" || head === "agentRole" ? head : null;
}

/**
 * "Add a fact": a fact written by hand into the workspace's long-term memory,
 * accepted at once, with optional tags and the agent role it is for. Errors show under
 * their field; viewers see the form disabled with the reason.
 */
export function AddFactForm({ workspaceId, canEdit }: { workspaceId: string; canEdit: boolean }) {
  const router = useRouter();
  const id = useId();
  const [content, setContent] = useState("");
  const [tags, setTags] = useState("");
  const [agentRole, setAgentRole] = useState("");
  const [errors, setErrors] = useState<Partial<Record<Field | "form", string>>>({});
  const [busy, setBusy] = useState(false);
  const [added, setAdded] = useState<{ content: string; merged: boolean } | null>(null);

  async function submit() {
    setAdded(null);
    if (!content.trim()) return setErrors({ content: "Write the fact first, e.g. “Summaries go to summary.md, in bullet points”." });
    setBusy(true);
    setErrors({});
    const res = await callApi<{ fact: FactView }>("POST", `/api/workspaces/${workspaceId}/memory`, {
      content: content.trim(),
      tags: parseTags(tags),
      ...(agentRole.trim() ? { agentRole: agentRole.trim() } : {}),
    });
    setBusy(false);
    if (!res.ok) {
      const next: Partial<Record<Field | "form", string>> = {};
      for (const issue of res.issues) {
        const field = fieldOf(issue) ?? "form";
        next[field] ??= issue.message;
      }
      if (Object.keys(next).length === 0) next.form = res.message;
      return setErrors(next);
    }
    setContent("");
    setTags("");
    setAgentRole("");
    // 200 (not 201): the workspace already held this fact; the tags were merged into it.
    setAdded({ content: res.data.fact.content, merged: res.status === 200 });
    notify.success(res.status === 200 ? "The fact was already known; its tags were merged." : "Fact added to the workspace's memory.");
    router.refresh();
  }

  const disabled = !canEdit || busy;
  const fieldError = (f: Field) =>
    errors[f] ? (
      <span id={`${id}-${f}-error`} className="error small" data-testid={`add-fact-${f}-error`}>
        {errors[f]}
      </span>
    ) : null;

  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid="add-fact">
      <h2 id={`${id}-title`}>Add a fact</h2>
      <p className="small muted">Something every agent of this workspace should know, e.g. a convention or a preference. It is accepted at once: agents get it when it is relevant to their step.</p>
      {canEdit ? null : (
        <p className="small muted" data-testid="add-fact-readonly">
          Your role in this workspace is viewer: it can read memory but not add to it. Ask an owner for the approver role.
        </p>
      )}
      <form
        className={styles.form}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label className={styles.wide}>
          Fact
          <textarea
            rows={2}
            value={content}
            onChange={(e) => setContent(e.target.value)}
            disabled={!canEdit}
            aria-invalid={Boolean(errors.content)}
            aria-describedby={errors.content ? `${id}-content-error` : undefined}
            data-testid="add-fact-content"
          />
          {fieldError("content")}
        </label>
        <label>
          Tags <span className="small muted">(comma-separated, optional)</span>
          <input
            value={tags}
            onChange={(e) => setTags(e.target.value)}
            placeholder="format, reports"
            disabled={!canEdit}
            aria-invalid={Boolean(errors.tags)}
            aria-describedby={errors.tags ? `${id}-tags-error` : undefined}
            data-testid="add-fact-tags"
          />
          {fieldError("tags")}
        </label>
        <label>
          For agent role <span className="small muted">(optional; empty = every agent)</span>
          <input
            value={agentRole}
            onChange={(e) => setAgentRole(e.target.value)}
            placeholder="e.g. writer"
            disabled={!canEdit}
            aria-invalid={Boolean(errors.agentRole)}
            aria-describedby={errors.agentRole ? `${id}-agentRole-error` : undefined}
            data-testid="add-fact-role"
          />
          {fieldError("agentRole")}
        </label>
        <div className={`${styles.wide} row gap`}>
          <button type="submit" disabled={disabled} data-testid="add-fact-submit">
            {busy ? "Adding…" : "Add fact"}
          </button>
          {errors.form ? (
            <span className="error small" role="alert" data-testid="add-fact-error">
              {errors.form}
            </span>
          ) : null}
          {added ? (
            <span className="small" aria-live="polite" data-testid="add-fact-done">
              {added.merged ? "Already in memory (tags merged): " : "Added: "}“{added.content.length > 80 ? `${added.content.slice(0, 80)}…` : added.content}”
            </span>
          ) : null}
        </div>
      </form>
    </section>
  );
}
