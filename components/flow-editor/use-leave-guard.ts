"use client";

import { useEffect } from "react";

/** The question asked before an in-app link leaves unsaved changes behind. */
export const LEAVE_MESSAGE = "This flow has unsaved changes. Leave without saving them?";

/**
 * Warns before unsaved changes are lost ("unsaved-changes warning"): the browser's
 * own prompt on reload, close and typed URLs (`beforeunload`), and a confirm() when a click
 * on a same-origin link would navigate away (Next's `<Link>` navigates on the client, where
 * `beforeunload` never fires). Links that open elsewhere (new tab, download, modifier keys)
 * and links to the current page pass. Does nothing while `dirty` is false.
 */
export function useLeaveGuard(dirty: boolean): void {
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = ""; // older browsers show the prompt only when this is set
    };
    // Capture phase on document: runs before React's listeners on the root, so a refusal
    // stops Next's client navigation as well as the browser's.
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const link = e.target instanceof Element ? e.target.closest("a[href]") : null;
      if (!(link instanceof HTMLAnchorElement) || link.hasAttribute("download")) return;
      if (link.target && link.target !== "_self") return;
      const to = new URL(link.href, window.location.href);
      if (to.origin !== window.location.origin) return;
      if (to.pathname === window.location.pathname && to.search === window.location.search) return;
      if (!window.confirm(LEAVE_MESSAGE)) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", warn);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", warn);
      document.removeEventListener("click", onClick, true);
    };
  }, [dirty]);
}
