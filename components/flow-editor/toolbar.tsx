"use client";

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
}

/**
 * The editor's top bar: flow name, version, dirty state, a link to the version history,
 * commit message and Save; below, the canvas commands (undo/redo, auto-layout, zoom to
 * fit, Flow settings, import/export, the problems count and the shortcuts help).
 */
export function Toolbar({ flowId, name, version, dirty, save, message, onMessageChange, onSave, onDismissError, errors, warnings, actions }: ToolbarProps) {
  const id = useId();
  const saving = save.status === "saving";
  const problems = errors + warnings;
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
          <input
            id={`${id}-message`}
            data-testid="save-message"
            placeholder="What changed?"
            value={message}
            onChange={(e) => onMessageChange(e.target.value)}
          />
          <button type="submit" className={styles.primary} data-testid="save-flow" disabled={saving} title="Ctrl/⌘+S">
            Save
          </button>
        </form>
      </div>
      <div className={styles.commands} role="toolbar" aria-label="Canvas">
        <div className={styles.commandGroup}>
          <button type="button" onClick={actions.onUndo} disabled={!actions.canUndo} data-testid="undo" title="Undo (Ctrl/⌘+Z)">
            ↶ Undo
          </button>
          <button type="button" onClick={actions.onRedo} disabled={!actions.canRedo} data-testid="redo" title="Redo (Ctrl/⌘+Shift+Z or Ctrl+Y)">
            ↷ Redo
          </button>
        </div>
        <div className={styles.commandGroup}>
          <button type="button" onClick={actions.onAutoLayout} data-testid="auto-layout" title="Arrange the nodes left to right (Shift+L)">
            Auto-layout
          </button>
          <button type="button" onClick={actions.onFitView} data-testid="fit-view" title="Zoom to fit (F)">
            Zoom to fit
          </button>
        </div>
        <div className={styles.commandGroup}>
          <button type="button" onClick={actions.onSettings} data-testid="flow-settings" title="Name, limits, network allowlist and memory (Alt+,)">
            Flow settings
          </button>
        </div>
        <div className={styles.commandGroup}>
          <button type="button" onClick={actions.onImport} data-testid="import-flow" title="Replace the canvas with a flow from a JSON file">
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
          {problems === 0 ? "✓ No problems" : `${errors > 0 ? "✕" : "!"} ${problems} ${problems === 1 ? "problem" : "problems"}`}
        </button>
        <button type="button" className={styles.helpButton} onClick={actions.onHelp} data-testid="shortcuts-help" title="Keyboard shortcuts (?)" aria-label="Keyboard shortcuts">
          ?
        </button>
      </div>
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
