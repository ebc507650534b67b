import { ProviderForm } from "@/components/settings/provider-form";
import { db } from "@/lib/db/client";
import { requireUser } from "@/lib/http/with-user";
import { listProviders } from "@/lib/models/provider-settings";

export const dynamic = "force-dynamic";

const PROVIDERS = [
  { provider: "openai", label: "OpenAI", needsUrl: false },
  { provider: "anthropic", label: "Anthropic", needsUrl: false },
  { provider: "openai-compatible", label: "OpenAI-compatible server (Ollama, vLLM, llama.cpp)", needsUrl: true },
] as const;

/** Settings: model providers (SPEC.md 8). Keys are sealed at rest and never shown again. */
export default async function SettingsPage() {
  const user = await requireUser();
  const saved = await listProviders(db(), user.id);
  return (
    <main>
      <h1>Settings</h1>
      <h2>Model providers</h2>
      <p className="muted">
        With nothing configured here, runs use the server's environment (<code>OPENAI_API_KEY</code>, <code>ANTHROPIC_API_KEY</code>,{" "}
        <code>OPENAI_COMPATIBLE_BASE_URL</code>) and, without those, the built-in offline model. API keys are encrypted at rest
        (AES-256-GCM) and never sent back to the browser.
      </p>
      {PROVIDERS.map((p) => (
        <ProviderForm key={p.provider} provider={p.provider} label={p.label} needsUrl={p.needsUrl} saved={saved.find((s) => s.provider === p.provider) ?? null} />
      ))}
    </main>
  );
}
