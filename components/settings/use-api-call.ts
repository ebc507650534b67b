"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { notify } from "@/components/ui/notify";

/** Methods a settings form sends. */
type Method = "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * A JSON call to the app's API from a settings form: sends it, shows the server's error
 * message (which says what to do) inline on failure, and on success says what was done in a
 * toast (when given `done`) and refreshes the page's server data.
 * @returns `call(url, method, body?, done?)` resolving to true on success; `request` is the
 * same call resolving to the answer's JSON body (null on failure, or when the answer has no
 * JSON body); plus `busy` and `error` (with `setError` for a form's own field checks).
 */
export function useApiCall() {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function send(url: string, method: Method, body: unknown, done: string | undefined): Promise<{ data: unknown } | null> {
    setError(null);
    setBusy(true);
    try {
      const res = await fetch(url, { method, ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }) });
      if (!res.ok) {
        const err = await res.json().catch(() => null);
        setError(err?.error?.message ?? `The server answered HTTP ${res.status}; reload the page and try again.`);
        return null;
      }
      const data: unknown = await res.json().catch(() => null);
      if (done) notify.success(done);
      router.refresh();
      return { data };
    } catch {
      setError("Could not reach the server; check that it is running and try again.");
      return null;
    } finally {
      setBusy(false);
    }
  }

  async function call(url: string, method: Method, body?: unknown, done?: string): Promise<boolean> {
    return (await send(url, method, body, done)) !== null;
  }

  async function request<T>(url: string, method: Method, body?: unknown, done?: string): Promise<T | null> {
    return ((await send(url, method, body, done))?.data ?? null) as T | null;
  }

  return { call, request, busy, error, setError };
}
