import Link from "next/link";
import { MembersForm } from "@/components/settings/members-form";
import { ProviderForm } from "@/components/settings/provider-form";
import { db } from "@/lib/db/client";
import { listMembers, listWorkspaces } from "@/lib/db/members";
import { requireUser } from "@/lib/http/with-user";
import { listProviders } from "@/lib/models/provider-settings";

export const dynamic = "force-dynamic";

const PROVIDERS = [
  { provider: "openai", label: "OpenAI", needsUrl: false },
  { provider: "anthropic", label: "Anthropic", needsUrl: false },
  { provider: "openai-compatible", label: "OpenAI-compatible server (Ollama, vLLM, llama.cpp)", needsUrl: true },
] as const;

/**
 * Settings: model providers (SPEC.md 8; keys are sealed at rest and never shown again) and
 * the workspaces I belong to with their members (issue 4 roles; owners manage them).
 */
export default async function SettingsPage() {
  const user = await requireUser();
  const saved = await listProviders(db(), user.id);
  const workspaces = await Promise.all(
    (await listWorkspaces(db(), user.id)).map(async (ws) => ({ ws, members: await listMembers(db(), user.id, ws.id) })),
  );
  return (
    <main>
      <h1>Settings</h1>
      <p>
        <Link href="/settings/mcp" data-testid="settings-mcp-link">
          MCP servers
        </Link>
        <span className="muted">: tools from Model Context Protocol servers for your workspaces' flows.</span>
      </p>
      <h2>Model providers</h2>
      <p className="muted">
        With nothing configured here, runs use the server's environment (<code>OPENAI_API_KEY</code>, <code>ANTHROPIC_API_KEY</code>,{" "}
        <code>OPENAI_COMPATIBLE_BASE_URL</code>) and, without those, the built-in offline model. API keys are encrypted at rest
        (AES-256-GCM) and never sent back to the browser.
      </p>
      {PROVIDERS.map((p) => (
        <ProviderForm key={p.provider} provider={p.provider} label={p.label} needsUrl={p.needsUrl} saved={saved.find((s) => s.provider === p.provider) ?? null} />
      ))}
      <h2>Workspaces and members</h2>
      <p className="muted">
        Flows, their runs and approvals belong to a workspace. <strong>Owners</strong> edit flows, run them, decide approvals and manage
        members; <strong>approvers</strong> run flows and decide approvals; <strong>viewers</strong> see. Only people who already have an
        account can be added: there is no sign-up.
      </p>
      {workspaces.length === 0 ? <p className="muted">You are in no workspace yet; creating a flow gives you one.</p> : null}
      {workspaces.map(({ ws, members }) => (
        <MembersForm key={ws.id} workspace={ws} members={members} myUserId={user.id} />
      ))}
    </main>
  );
}
