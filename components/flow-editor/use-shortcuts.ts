"use client";

import { useEffect, useEffectEvent } from "react";

/** What the editor's keyboard shortcuts do. */
export interface ShortcutHandlers {
  save: () => void;
  undo: () => void;
  redo: () => void;
  /** Copies the selection; false when there is nothing to copy (the browser copies text then). */
  copy: () => boolean;
  /** Ctrl+V: the browser's paste event follows, so the key is not prevented. */
  paste: () => void;
  duplicate: () => void;
  selectAll: () => void;
  autoLayout: () => void;
  fitView: () => void;
  help: () => void;
}

/** One line of the shortcuts help: the keys and what they do. */
export interface Shortcut {
  keys: string[];
  action: string;
}

/**
 * Every shortcut of the editor, as the help dialog lists them. `Mod` is Ctrl, or ⌘ on a
 * Mac. Delete and multi-select are React Flow's (`deleteKeyCode`, `multiSelectionKeyCode`,
 * `selectionKeyCode`); the rest are handled by {@link useShortcuts}.
 */
export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ["Mod+S"], action: "Save a new version" },
  { keys: ["Mod+Z"], action: "Undo" },
  { keys: ["Mod+Shift+Z", "Ctrl+Y"], action: "Redo" },
  { keys: ["Mod+C"], action: "Copy the selected nodes (with the edges between them)" },
  { keys: ["Mod+V"], action: "Paste copied nodes" },
  { keys: ["Mod+D"], action: "Duplicate the selected nodes" },
  { keys: ["Delete", "Backspace"], action: "Delete the selected nodes and edges" },
  { keys: ["Mod+A"], action: "Select all nodes and edges" },
  { keys: ["Shift+click", "Mod+click"], action: "Add a node or edge to the selection" },
  { keys: ["Shift+drag"], action: "Select the nodes inside a box" },
  { keys: ["Drag the canvas"], action: "Pan" },
  { keys: ["Scroll", "Pinch"], action: "Zoom" },
  { keys: ["Shift+L"], action: "Auto-layout" },
  { keys: ["F", "Shift+F"], action: "Zoom to fit" },
  { keys: ["Tab", "Enter"], action: "Focus a node, then select it" },
  { keys: ["Arrow keys"], action: "Move the selected nodes (while a node has focus)" },
  { keys: ["Alt+,"], action: "Flow settings (network allowlist, memory, limits)" },
  { keys: ["?"], action: "Show this help" },
];

/**
 * True when a key press or clipboard event belongs to a text field (input, textarea,
 * select or contenteditable): canvas shortcuts then stay out of the way so the field keeps
 * its native undo, copy and paste.
 */
export function isEditableTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/**
 * Listens for the editor's shortcuts on `window`. Mod+S works everywhere (also in the
 * commit message field); the others never fire while focus is in a text field or while a
 * modal dialog is open.
 */
export function useShortcuts(handlers: ShortcutHandlers): void {
  const onKeyDown = useEffectEvent((e: KeyboardEvent) => {
    if (e.defaultPrevented || e.isComposing) return;
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key.toLowerCase();
    if (mod && !e.altKey && key === "s") {
      e.preventDefault();
      handlers.save();
      return;
    }
    if (isEditableTarget(e.target) || document.querySelector("dialog[open]")) return;
    if (mod) {
      if (e.altKey) return;
      if (key === "z") {
        e.preventDefault();
        if (e.shiftKey) handlers.redo();
        else handlers.undo();
      } else if (key === "y" && !e.shiftKey) {
        e.preventDefault();
        handlers.redo();
      } else if (key === "c" && !e.shiftKey) {
        // Text selected on the page (a problem's message): the browser copies that instead.
        const text = window.getSelection();
        if ((!text || text.isCollapsed) && handlers.copy()) e.preventDefault();
      } else if (key === "v" && !e.shiftKey) {
        handlers.paste();
      } else if (key === "d" && !e.shiftKey) {
        e.preventDefault();
        handlers.duplicate();
      } else if (key === "a" && !e.shiftKey) {
        e.preventDefault();
        handlers.selectAll();
      }
      return;
    }
    if (e.altKey) return;
    if (e.key === "?") {
      e.preventDefault();
      handlers.help();
    } else if (e.code === "KeyL" && e.shiftKey) {
      e.preventDefault();
      handlers.autoLayout();
    } else if (e.code === "KeyF") {
      e.preventDefault();
      handlers.fitView();
    }
  });

  useEffect(() => {
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, []);
}
