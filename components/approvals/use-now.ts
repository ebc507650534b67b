"use client";
import { useSyncExternalStore } from "react";

/**
 * The browser's clock for time-relative text (countdowns), read through
 * `useSyncExternalStore` with a server snapshot of null: the server and the hydrating client
 * render the same placeholder, and the real time appears right after hydration (no React
 * hydration mismatch, error #418). One shared one-second timer runs while any ticking
 * component is mounted.
 */

let now = 0;
let timer: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, 1000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The clock; outside a ticking subscription it moves at most once a second, so reads within one render agree. */
function snapshot(): number {
  if (!timer && Date.now() - now >= 1000) now = Date.now();
  return now;
}

const still = () => () => {};
const onServer = () => null;

/**
 * Milliseconds since the epoch on the client, null on the server and while hydrating.
 * @param ticking true to re-render every second (a live countdown); false reads the clock
 *   once after hydration (decided cards, which must not count down).
 */
export function useNow(ticking: boolean): number | null {
  return useSyncExternalStore(ticking ? subscribe : still, snapshot, onServer);
}
