"use client";
import { notify } from "@/components/ui/notify";

/**
 * Copy, for a value shown once (a webhook's signing secret, a new API key): writes `text` to
 * the clipboard and says so in a toast (`copied`), or, when the browser refuses, says how to
 * copy it by hand (`failed`).
 */
export function CopyButton({ text, copied, failed, testId }: { text: string; copied: string; failed: string; testId: string }) {
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      notify.success(copied);
    } catch {
      notify.error(failed);
    }
  }
  return (
    <button type="button" onClick={() => void copy()} data-testid={testId}>
      Copy
    </button>
  );
}
