"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { notify } from "@/components/ui/notify";
import type { ProviderView } from "@/lib/models/provider-view";

type Saved = Omit<ProviderView, "updatedAt">;

/**
 * One provider's settings: key (write-only), model, base URL, default; save and remove.
 * `naming` (OpenAI-compatible only, docs/models.md "Local servers"): "fixed" for a named
 * entry (its name is `provider`), "new" for a card that asks for the name of a new entry.
 */
export function ProviderForm({ provider, label, needsUrl, saved, naming }: { provider: string; label: string; needsUrl: boolean; saved: Saved | null; naming?: "fixed" | "new" }) {
  const router = useRouter();
  const [name, setName] = useState("");
  const [apiKey, setApiKey] = useState("");
  const [model, setModel] = useState(saved?.model ?? "");
  const [baseUrl, setBaseUrl] = useState(saved?.baseUrl ?? "");
  const [isDefault, setDefault] = useState(saved?.isDefault ?? false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function call(method: "PUT" | "DELETE") {
    setError(null);
    setStatus(null);
    const entryName = naming === "fixed" ? provider : naming === "new" ? name.trim() : "";
    const kind = needsUrl ? "openai-compatible" : provider;
    const body = { provider: kind, ...(entryName ? { name: entryName } : {}), ...(apiKey ? { apiKey } : {}), ...(model ? { model } : {}), ...(needsUrl ? { baseUrl } : {}), isDefault };
    let res: Response;
    try {
      res =
        method === "PUT"
          ? await fetch("/api/settings/providers", { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
          : await fetch(`/api/settings/providers?provider=${encodeURIComponent(provider)}`, { method });
    } catch {
      setError("Could not reach the server; check that it is running and try again.");
      return;
    }
    if (!res.ok) {
      const err = await res.json().catch(() => null);
      setError(err?.error?.message ?? `HTTP ${res.status}`);
      return;
    }
    setApiKey("");
    setStatus(method === "PUT" ? "Saved." : "Removed.");
    notify.success(method === "PUT" ? `${label} settings saved.` : `${label} settings removed.`);
    router.refresh();
  }

  return (
    <section className="card stack" data-testid={`provider-card-${provider}`}>
      <h3>
        {label} {saved?.isDefault ? <span className="badge">default</span> : null}
      </h3>
      <label>
        API key
        <input
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
          placeholder={saved?.hasKey ? `stored ${saved.keyHint ?? ""} (type to replace)` : needsUrl ? "optional" : "required"}
          data-testid={`provider-key-${provider}`}
        />
      </label>
      {naming === "new" ? (
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. ollama" autoComplete="off" data-testid={`provider-name-${provider}`} />
          <span className="small muted">Flows address its models as name:model, e.g. ollama:llama3.1.</span>
        </label>
      ) : null}
      {needsUrl ? (
        <label>
          Base URL
          <input value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} placeholder="https://llm.example.com/v1" data-testid={`provider-baseurl-${provider}`} />
          <span className="small muted">A server on this machine or the private network (such as a local Ollama) is reachable only once the operator opens its host with OUTBOUND_ALLOW_PRIVATE.</span>
        </label>
      ) : null}
      <label>
        Model
        <input value={model} onChange={(e) => setModel(e.target.value)} placeholder={needsUrl ? "e.g. llama3.1" : "provider default"} data-testid={`provider-model-${provider}`} />
      </label>
      <label className="row gap">
        <input type="checkbox" checked={isDefault} onChange={(e) => setDefault(e.target.checked)} data-testid={`provider-default-${provider}`} /> Use for my runs
      </label>
      <div className="row gap">
        <button type="button" onClick={() => call("PUT")} data-testid={`provider-save-${provider}`}>
          Save
        </button>
        {saved ? (
          <button type="button" className="secondary" onClick={() => call("DELETE")} data-testid={`provider-remove-${provider}`}>
            Remove
          </button>
        ) : null}
        <span className="small muted" data-testid={`provider-status-${provider}`}>
          {status}
        </span>
      </div>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
