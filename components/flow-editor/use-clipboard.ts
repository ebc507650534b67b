"use client";

import { useCallback, useEffect, useRef } from "react";
import { copyNodes, type NodeClipboard, readClipboard } from "@/lib/flow/clipboard";
import type { EditorEdge, EditorNode } from "@/lib/flow/react-flow";
import { isEditableTarget } from "./use-shortcuts";

/** How far each paste of the same copy moves from the last one, flow px. */
const PASTE_STEP = 40;
/** How long Ctrl+V waits for the browser's paste event before pasting the in-memory copy, ms. */
const PASTE_EVENT_WAIT_MS = 150;

/**
 * The last copy, kept in memory for when the system clipboard cannot be written or read
 * (an insecure origin, a denied permission, a browser without the async Clipboard API).
 * Module-level so that it outlives one editor (copy in one flow, paste in another).
 */
let memory: { clip: NodeClipboard; text: string; system: boolean } | null = null;

export interface ClipboardOptions {
  /** The editor's nodes and edges as they are now. */
  current: () => { nodes: readonly EditorNode[]; edges: readonly EditorEdge[] };
  /** Adds copied nodes; `offset` is how far (flow px) to move them from where they were copied. */
  paste: (clip: NodeClipboard, offset: { x: number; y: number }) => void;
}

/**
 * Copy/paste of the selected nodes with the edges between them. Copy writes JSON
 * text to the system clipboard (so a copy can be pasted into another flow or tab) and keeps
 * it in memory. Paste reads the browser's `paste` event (no permission prompt); when the
 * system clipboard could not be written, or no paste event comes, the in-memory copy is
 * used. Paste events whose target is a text field are left to the field.
 */
export function useClipboard({ current, paste }: ClipboardOptions) {
  // Each paste of the same text lands one step further from the original.
  const pasteCount = useRef(0);
  const lastPasted = useRef<string | null>(null);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const options = useRef({ current, paste });
  useEffect(() => {
    options.current = { current, paste };
  });

  const pasteClip = useCallback((clip: NodeClipboard, text: string) => {
    if (lastPasted.current !== text) {
      lastPasted.current = text;
      pasteCount.current = 0;
    }
    pasteCount.current += 1;
    const step = PASTE_STEP * pasteCount.current;
    options.current.paste(clip, { x: step, y: step });
  }, []);

  /** Copies the selected nodes; false when no node is selected. */
  const copy = useCallback((): boolean => {
    const { nodes, edges } = options.current.current();
    const clip = copyNodes(nodes, edges, new Set(nodes.filter((n) => n.selected).map((n) => n.id)));
    if (!clip) return false;
    const text = JSON.stringify(clip, null, 2);
    const entry = { clip, text, system: false };
    memory = entry;
    lastPasted.current = null;
    navigator.clipboard
      ?.writeText(text)
      .then(() => {
        entry.system = true;
      })
      .catch(() => {
        // No permission or no secure context: paste uses the in-memory copy.
      });
    return true;
  }, []);

  /** Ctrl+V outside text fields: wait for the paste event, else paste the in-memory copy. */
  const requestPaste = useCallback(() => {
    if (pending.current) clearTimeout(pending.current);
    pending.current = setTimeout(() => {
      pending.current = null;
      if (memory) pasteClip(memory.clip, memory.text);
    }, PASTE_EVENT_WAIT_MS);
  }, [pasteClip]);

  /** Copies the selection in memory only and pastes it at once (Ctrl+D). */
  const duplicate = useCallback((): boolean => {
    const { nodes, edges } = options.current.current();
    const clip = copyNodes(nodes, edges, new Set(nodes.filter((n) => n.selected).map((n) => n.id)));
    if (!clip) return false;
    options.current.paste(clip, { x: PASTE_STEP, y: PASTE_STEP });
    return true;
  }, []);

  useEffect(() => {
    const onPaste = (e: ClipboardEvent) => {
      if (isEditableTarget(e.target)) return;
      if (pending.current) {
        clearTimeout(pending.current);
        pending.current = null;
      }
      const text = e.clipboardData?.getData("text/plain") ?? "";
      const fromSystem = text ? readClipboard(text) : null;
      if (memory && (text === memory.text || (!fromSystem && !memory.system))) {
        e.preventDefault();
        pasteClip(memory.clip, memory.text);
      } else if (fromSystem) {
        e.preventDefault();
        pasteClip(fromSystem, text);
      }
    };
    document.addEventListener("paste", onPaste);
    return () => {
      document.removeEventListener("paste", onPaste);
      if (pending.current) clearTimeout(pending.current);
    };
  }, [pasteClip]);

  return { copy, requestPaste, duplicate };
}
