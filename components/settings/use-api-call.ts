"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { notify } from "@/components/ui/notify";

/**
 * A JSON call to the app's API from a settings form: sends it, shows the server's error
 * message (which says what to do) inline on failure, and on success says what was done in a
 * toast (when given `done`) and refreshes the page's server data.
 * @returns `call(url, method, body?, done?)` resolving to true on success, plus `busy` and `error`.
 */
export function useApiCall() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function call(url: string, method: "POST" | "PUT" | "PATCH" | "DELETE", body?: unknown, done?: string): Promise<boolean> {
    setError(null);
    setBusy(true);
    try {
      const res = await fetch(url, { method, ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }) });
      if (!res.ok) {
        const err = await res.json().catch(() => null);
        setError(err?.error?.message ?? `The server answered HTTP ${res.status}; reload the page and try again.`);
        return false;
      }
      if (done) notify.success(done);
      router.refresh();
      return true;
    } catch {
      setError("Could not reach the server; check that it is running and try again.");
      return false;
    } finally {
      setBusy(false);
    }
  }

  return { call, busy, error, setError };
}
