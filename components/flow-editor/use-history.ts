"use client";

import { useCallback, useRef, useState } from "react";

/** How many undo steps are kept. */
const LIMIT = 100;
/** Edits with the same key closer together than this (ms) are one undo step (typing). */
export const COALESCE_MS = 1000;

interface Entry<S> {
  state: S;
  key: string | null;
  /** When the last edit of this entry's key happened (ms since epoch). */
  at: number;
}

/**
 * Undo/redo of whole editor states (snapshots). Call `record(current, key?)` BEFORE each
 * change with the state as it is; `undo(current)` / `redo(current)` give the state to
 * restore (or null). Steps are coalesced three ways:
 * - changes in the same JavaScript task are one step (a delete removes nodes, then edges);
 * - changes with the same `key` within `windowMs` of the previous one are one step (typing
 *   into one inspector field; a drag uses `Infinity` and ends with `breakCoalescing()`);
 * - anything else is a new step, and clears the redo stack.
 */
export function useHistory<S>() {
  const past = useRef<Entry<S>[]>([]);
  const future = useRef<S[]>([]);
  const batchOpen = useRef(false);
  const coalescing = useRef(true);
  // The stacks' sizes as state, so the toolbar's Undo/Redo buttons follow them.
  const [sizes, setSizes] = useState({ past: 0, future: 0 });
  const bump = useCallback(() => setSizes({ past: past.current.length, future: future.current.length }), []);

  const record = useCallback(
    (current: S, key: string | null = null, windowMs = COALESCE_MS) => {
      const now = Date.now();
      const last = past.current[past.current.length - 1];
      if (key !== null && coalescing.current && last && last.key === key && now - last.at < windowMs) {
        last.at = now;
        if (future.current.length > 0) {
          future.current = [];
          bump();
        }
        return;
      }
      if (batchOpen.current) return;
      batchOpen.current = true;
      setTimeout(() => {
        batchOpen.current = false;
      }, 0);
      coalescing.current = true;
      past.current = [...past.current.slice(-(LIMIT - 1)), { state: current, key, at: now }];
      future.current = [];
      bump();
    },
    [bump],
  );

  /** The next `record` starts a new step even with the same key (a drag ended). */
  const breakCoalescing = useCallback(() => {
    coalescing.current = false;
  }, []);

  const undo = useCallback(
    (current: S): S | null => {
      const entry = past.current[past.current.length - 1];
      if (!entry) return null;
      past.current = past.current.slice(0, -1);
      future.current = [...future.current, current];
      coalescing.current = false;
      bump();
      return entry.state;
    },
    [bump],
  );

  const redo = useCallback(
    (current: S): S | null => {
      const state = future.current[future.current.length - 1];
      if (state === undefined) return null;
      future.current = future.current.slice(0, -1);
      past.current = [...past.current, { state: current, key: null, at: 0 }];
      coalescing.current = false;
      bump();
      return state;
    },
    [bump],
  );

  return {
    record,
    breakCoalescing,
    undo,
    redo,
    canUndo: sizes.past > 0,
    canRedo: sizes.future > 0,
  };
}
