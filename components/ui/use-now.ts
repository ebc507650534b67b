"use client";
import { useSyncExternalStore } from "react";

/**
 * One clock for every piece of time-relative text on a page ("3 min ago"), read through
 * `useSyncExternalStore` so that the server and the hydrating browser agree: the server
 * snapshot is `null` (there is no "now" worth rendering into HTML that a browser reads
 * later, in another time zone), and the browser's first render after hydration reads the
 * real time. One interval serves all subscribers and stops when the last one leaves.
 */

/** How often the clock ticks, ms: relative text is to the minute, so half a minute is enough. */
const TICK_MS = 30_000;

let now = 0;
let timer: ReturnType<typeof setInterval> | null = null;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === null) {
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer);
      timer = null;
    }
  };
}

function snapshot(): number {
  // The same value for every read until the next tick (useSyncExternalStore requires it);
  // read afresh on first use, or when no subscriber kept it ticking for a while.
  if (Date.now() - now >= TICK_MS) now = Date.now();
  return now;
}

const serverSnapshot = (): null => null;

/**
 * The current time in ms since the epoch, updated every 30 s; `null` on the server and
 * during hydration, so callers render time-dependent text only in the browser.
 */
export function useNow(): number | null {
  return useSyncExternalStore(subscribe, snapshot, serverSnapshot);
}

const noop = () => () => {};

/**
 * True in the browser after hydration, false on the server and while hydrating: for text
 * that depends on the viewer's locale or time zone.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}
