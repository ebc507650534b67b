"use client";
import { useSyncExternalStore } from "react";

/**
 * One clock per resolution for every piece of time-relative text on a page ("3 min ago", a
 * countdown), read through `useSyncExternalStore` so that the server and the hydrating
 * browser agree: the server snapshot is `null` (there is no "now" worth rendering into HTML
 * that a browser reads later, in another time zone), and the browser's first render after
 * hydration reads the real time. Each resolution has one interval, shared by its
 * subscribers and stopped when the last one leaves.
 */

/** Resolution of relative text such as "3 min ago", ms: half a minute is enough. */
export const MINUTE_TEXT_MS = 30_000;
/** Resolution of a live countdown ("expires in 4:59"), ms. */
export const COUNTDOWN_MS = 1_000;

interface Clock {
  now: number;
  timer: ReturnType<typeof setInterval> | null;
  listeners: Set<() => void>;
  subscribe: (listener: () => void) => () => void;
  snapshot: () => number;
}

const clocks = new Map<number, Clock>();

function clockOf(tickMs: number): Clock {
  const known = clocks.get(tickMs);
  if (known) return known;
  const clock: Clock = {
    now: 0,
    timer: null,
    listeners: new Set(),
    subscribe(listener) {
      clock.listeners.add(listener);
      if (clock.timer === null) {
        clock.now = Date.now();
        clock.timer = setInterval(() => {
          clock.now = Date.now();
          for (const l of clock.listeners) l();
        }, tickMs);
      }
      return () => {
        clock.listeners.delete(listener);
        if (clock.listeners.size === 0 && clock.timer !== null) {
          clearInterval(clock.timer);
          clock.timer = null;
        }
      };
    },
    // The same value for every read until the next tick (useSyncExternalStore requires it);
    // read afresh on first use, or when no subscriber kept it ticking for a while.
    snapshot() {
      if (Date.now() - clock.now >= tickMs) clock.now = Date.now();
      return clock.now;
    },
  };
  clocks.set(tickMs, clock);
  return clock;
}

const serverSnapshot = (): null => null;
const still = () => () => {};

/**
 * The current time in ms since the epoch; `null` on the server and during hydration, so
 * callers render time-dependent text only in the browser.
 * @param tickMs how often to re-render, ms (MINUTE_TEXT_MS, COUNTDOWN_MS); null reads the
 *   clock once after hydration and never re-renders for it (a decided approval's card).
 */
export function useNow(tickMs: number | null = MINUTE_TEXT_MS): number | null {
  const clock = clockOf(tickMs ?? MINUTE_TEXT_MS);
  return useSyncExternalStore(tickMs === null ? still : clock.subscribe, clock.snapshot, serverSnapshot);
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
