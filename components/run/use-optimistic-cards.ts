"use client";
import { useEffect, useRef, useState } from "react";

/**
 * What the view shows on cards the user has just acted on (approval decisions, outcome
 * choices), by card id, before the run confirms it: `mark(id, value)` records it and names
 * the card the request in flight belongs to; when that request fails (`error`, the chat's
 * error: a refused decision answers 403, 409, 410 or 422), the card goes back to what the
 * server says and `onRefused(id, error)` is called once.
 */
export function useOptimisticCards<T>(error: Error | undefined, onRefused: (id: string, error: Error) => void = () => {}) {
  const [marked, setMarked] = useState<Record<string, T>>({});
  const last = useRef<string | null>(null);
  const refused = useRef(onRefused);
  refused.current = onRefused;
  useEffect(() => {
    const id = last.current;
    if (!error || !id) return;
    last.current = null;
    setMarked(({ [id]: _, ...rest }) => rest);
    refused.current(id, error);
  }, [error]);
  const mark = (id: string, value: T) => {
    last.current = id;
    setMarked((m) => ({ ...m, [id]: value }));
  };
  return { marked, mark };
}
