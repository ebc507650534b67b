"use client";

import { useId } from "react";
import styles from "./flow-editor.module.css";
import type { SaveState } from "./use-save-flow";

export interface ToolbarProps {
  name: string;
  version: number;
  dirty: boolean;
  save: SaveState;
  message: string;
  onMessageChange: (message: string) => void;
  onSave: () => void;
  onDismissError: () => void;
}

/** The editor's top bar: flow name, version, dirty state, commit message and Save. */
export function Toolbar({ name, version, dirty, save, message, onMessageChange, onSave, onDismissError }: ToolbarProps) {
  const id = useId();
  const saving = save.status === "saving";
  return (
    <header className={styles.toolbarWrap}>
      <div className={styles.toolbar} data-testid="editor-toolbar">
        <h1 className={styles.flowName}>{name}</h1>
        <span className={styles.version} data-testid="flow-version">
          v{version}
        </span>
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
