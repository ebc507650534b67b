"use client";
import { useEffect, useRef } from "react";
import type { InboxEvent } from "@/lib/approvals/inbox-item";

/**
 * One `EventSource` on `GET /api/approvals/events` per tab, shared by every component that
 * listens (the navigation badge, the inbox list, the detail page): opened with the first
 * listener, closed with the last. A hidden tab lets its connection go (browsers allow
 * about six per host over HTTP/1.1) and opens it again when shown; the browser reconnects
 * by itself after a network error.
 */

/** An event as listeners get it: `resync` marks the first one after the tab was hidden. */
export type ApprovalStreamEvent = InboxEvent & { resync?: boolean };

type Listener = (event: ApprovalStreamEvent) => void;

const listeners = new Set<Listener>();
let source: EventSource | null = null;
/** The last count the stream sent, replayed to listeners that join an open stream. */
let lastPending: number | null = null;
/** True between reopening after a hidden spell and the first event of the new stream. */
let resyncNext = false;
let watchingVisibility = false;

function open(): void {
  if (source || typeof EventSource === "undefined") return;
  if (typeof document !== "undefined" && document.visibilityState === "hidden") return;
  source = new EventSource("/api/approvals/events");
  source.addEventListener("approvals", (e) => {
    let data: ApprovalStreamEvent;
    try {
      data = JSON.parse((e as MessageEvent<string>).data) as InboxEvent;
    } catch {
      return;
    }
    if (resyncNext && !data.approvalId) data = { ...data, resync: true };
    resyncNext = false;
    lastPending = data.pending;
    for (const l of listeners) l(data);
  });
}

function close(): void {
  source?.close();
  source = null;
  lastPending = null;
}

function onVisibility(): void {
  if (document.visibilityState === "hidden") {
    if (source) resyncNext = true;
    close();
  } else if (listeners.size > 0) {
    open();
  }
}

/**
 * Calls `listener` with every `approvals` event of the user's live stream: the first one
 * on connect (no `approvalId`; a listener joining an open stream gets the last count
 * at once; after a hidden spell it carries `resync: true`, since changes may have been
 * missed), then one per approval change (with `approvalId`, `type`).
 */
export function useApprovalEvents(listener: Listener): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    const l: Listener = (e) => latest.current(e);
    listeners.add(l);
    if (!watchingVisibility) {
      watchingVisibility = true;
      document.addEventListener("visibilitychange", onVisibility);
    }
    open();
    if (lastPending !== null) l({ pending: lastPending });
    return () => {
      listeners.delete(l);
      if (listeners.size === 0) close();
    };
  }, []);
}
