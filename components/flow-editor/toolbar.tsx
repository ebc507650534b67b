"use client";

import { CircleAlert, CircleCheck, CircleX, Keyboard, Lock, Redo2, Undo2 } from "lucide-react";
import Link from "next/link";
import { useId } from "react";
import styles from "./flow-editor.module.css";
import type { SaveState } from "./use-save-flow";

/** The canvas commands the toolbar offers (each also has a shortcut, see use-shortcuts.ts). */
export interface ToolbarActions {
  canUndo: boolean;
  canRedo: boolean;
  onUndo: () => void;
  onRedo: () => void;
  onAutoLayout: () => void;
  onFitView: () => void;
  onExport: () => void;
  onImport: () => void;
  onHelp: () => void;
  /** Opens the Flow settings dialog (name, limits, network allowlist, memory). */
  onSettings: () => void;
  /** Opens the problems panel. */
  onShowProblems: () => void;
}

export interface ToolbarProps {
  flowId: string;
  name: string;
  version: number;
  dirty: boolean;
  save: SaveState;
  message: string;
  onMessageChange: (message: string) => void;
  onSave: () => void;
  onDismissError: () => void;
  /** Live validation counts. */
  errors: number;
  warnings: number;
  actions: ToolbarActions;
  /**
   * Why this user cannot change the flow (their role), or null: Save, undo/redo,
   * auto-layout and import are then disabled and the reason is shown beside Save.
   */
  readOnlyReason?: string | null;
}

/**
 * The editor's top bar: flow name, version, dirty state, a link to the version history,
 * commit message and Save; below, the canvas commands (undo/redo, auto-layout, zoom to
 * fit, Flow settings, import/export, the problems count and the shortcuts help). In a
 * read-only editor (the user's role cannot edit), everything that changes the flow is
 * disabled and says why.
 */
export function Toolbar({ flowId, name, version, dirty, save, message, onMessageChange, onSave, onDismissError, errors, warnings, actions, readOnlyReason = null }: ToolbarProps) {
  const id = useId();
  const saving = save.status === "saving";
  const problems = errors + warnings;
  const readOnly = readOnlyReason !== null;
  const ProblemsIcon = problems === 0 ? CircleCheck : errors > 0 ? CircleX : CircleAlert;
  return (
    <header className={styles.toolbarWrap}>
      <div className={styles.toolbar} data-testid="editor-toolbar">
        <h1 className={styles.flowName}>{name}</h1>
        <span className={styles.version} data-testid="flow-version">
          v{version}
        </span>
        <Link href={`/flows/${encodeURIComponent(flowId)}/versions`} className={styles.historyLink} data-testid="history-link">
          History
        </Link>
        {dirty && (
          <span className={styles.dirty} data-testid="dirty-indicator">
            Unsaved changes
          </span>
        )}
        {save.status === "saved" && !dirty && (
          <output className={styles.saved} data-testid="save-status">
            Saved v{save.version}
          </output>
        )}
        {saving && <output className={styles.muted}>Saving…</output>}
        <form
          className={styles.saveForm}
          onSubmit={(e) => {
            e.preventDefault();
            onSave();
          }}
        >
          <label htmlFor={`${id}-message`} className={styles.muted}>
            Commit message
          </label>
          <input id={`${id}-message`} data-testid="save-message" placeholder="What changed?" value={message} disabled={readOnly} onChange={(e) => onMessageChange(e.target.value)} />
          <button
            type="submit"
            className={styles.primary}
            data-testid="save-flow"
            disabled={saving || readOnly}
            title={readOnlyReason ?? "Ctrl/⌘+S"}
            aria-describedby={readOnly ? `${id}-read-only` : undefined}
          >
            Save
          </button>
        </form>
      </div>
      <div className={styles.commands} role="toolbar" aria-label="Canvas">
        <div className={styles.commandGroup}>
          <button type="button" onClick={actions.onUndo} disabled={readOnly || !actions.canUndo} data-testid="undo" title={readOnlyReason ?? "Undo (Ctrl/⌘+Z)"}>
            <Undo2 size={14} aria-hidden /> Undo
          </button>
          <button type="button" onClick={actions.onRedo} disabled={readOnly || !actions.canRedo} data-testid="redo" title={readOnlyReason ?? "Redo (Ctrl/⌘+Shift+Z or Ctrl+Y)"}>
            <Redo2 size={14} aria-hidden /> Redo
          </button>
        </div>
        <div className={styles.commandGroup}>
          <button type="button" onClick={actions.onAutoLayout} disabled={readOnly} data-testid="auto-layout" title={readOnlyReason ?? "Arrange the nodes left to right (Shift+L)"}>
            Auto-layout
          </button>
          <button type="button" onClick={actions.onFitView} data-testid="fit-view" title="Zoom to fit (F)">
            Zoom to fit
          </button>
        </div>
        <div className={styles.commandGroup}>
          <button type="button" onClick={actions.onSettings} data-testid="flow-settings" title="Name, limits, network allowlist and memory (Alt+,)">
            {readOnly ? "View flow settings" : "Flow settings"}
          </button>
        </div>
        <div className={styles.commandGroup}>
          <button type="button" onClick={actions.onImport} disabled={readOnly} data-testid="import-flow" title={readOnlyReason ?? "Replace the canvas with a flow from a JSON file"}>
            Import…
          </button>
          <button type="button" onClick={actions.onExport} data-testid="export-flow" title="Download this flow as JSON">
            Export
          </button>
        </div>
        <button
          type="button"
          className={`${styles.problemsBadge} ${errors > 0 ? styles.problemsBadgeError : ""}`}
          onClick={actions.onShowProblems}
          data-testid="problems-count"
          data-errors={errors}
          data-warnings={warnings}
          title="Show the problems panel"
        >
          <ProblemsIcon size={14} aria-hidden /> {problems === 0 ? "No problems" : `${problems} ${problems === 1 ? "problem" : "problems"}`}
        </button>
        <button type="button" className={styles.helpButton} onClick={actions.onHelp} data-testid="shortcuts-help" title="Keyboard shortcuts (?)" aria-label="Keyboard shortcuts">
          <Keyboard size={16} aria-hidden />
        </button>
      </div>
      {readOnly && (
        <p className={styles.readOnly} id={`${id}-read-only`} data-testid="read-only-notice" role="note">
          <Lock size={14} aria-hidden /> <strong>Read-only.</strong> {readOnlyReason}
        </p>
      )}
      {save.status === "error" && (
        <div className={styles.saveError} data-testid="save-error" role="alert">
          <div className={styles.saveErrorHead}>
            <strong>{save.message}</strong>
            <button type="button" onClick={onDismissError}>
              Dismiss
            </button>
          </div>
          {save.issues.length > 0 && (
            <ul>
              {save.issues.map((issue, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: issues are a static list per error
                <li key={i}>
                  <code>{issue.path || "(document)"}</code>: {issue.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </header>
  );
}
