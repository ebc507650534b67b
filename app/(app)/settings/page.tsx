import type { Metadata } from "next";
import Link from "next/link";
import { ApiKeys } from "@/components/settings/api-keys";
import { InstanceAdmin } from "@/components/settings/instance-admin";
import { LibrarySection } from "@/components/settings/library";
import { MembersForm } from "@/components/settings/members-form";
import { MyInvitations } from "@/components/settings/my-invitations";
import { ProviderForm } from "@/components/settings/provider-form";
import { listApiKeys } from "@/lib/auth/api-keys";
import { WebhooksSection } from "@/components/settings/webhooks";
import { SecretsSection } from "@/components/settings/secrets";
import { instanceOverview } from "@/lib/db/accounts";
import { db } from "@/lib/db/client";
import { isInstanceAdmin } from "@/lib/db/instance-admin";
import { myInvitations } from "@/lib/db/invitation-answers";
import { listInvitations } from "@/lib/db/invitations";
import { listMembers, listWorkspaces } from "@/lib/db/members";
import { can } from "@/lib/auth/roles";
import { requireUser } from "@/lib/http/with-user";
import { listProviders } from "@/lib/models/provider-settings";
import { listWebhooks } from "@/lib/webhooks/endpoints";
import { listSecrets } from "@/lib/workspace-secrets/service";
import { env } from "@/lib/env";
import { listLibrary } from "@/lib/tools/library";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Settings" };

const PROVIDERS = [
  { provider: "openai", label: "OpenAI", needsUrl: false },
  { provider: "anthropic", label: "Anthropic", needsUrl: false },
  { provider: "openai-compatible", label: "OpenAI-compatible server (Ollama, vLLM, llama.cpp)", needsUrl: true },
] as const;

/**
 * Settings: invitations waiting for me (accept or decline; docs/security.md "Membership"),
 * model providers (keys are sealed at rest and never shown again), the workspaces I
 * belong to with their members and, for owners, pending invitations (docs/security.md "Roles
 * and powers"), my API keys (docs/api.md "API keys"), the webhooks of the workspaces I own
 * (docs/webhooks.md), the secrets of my workspaces (docs/secrets.md), each workspace's library (docs/library.md), and, for instance admins only, the "Instance" section (accounts,
 * workspaces).
 */
export default async function SettingsPage() {
  const user = await requireUser();
  const [saved, invitations, admin] = await Promise.all([listProviders(db(), user.id), myInvitations(db(), user.id), isInstanceAdmin(db(), user.id)]);
  const workspaces = await Promise.all(
    (await listWorkspaces(db(), user.id)).map(async (ws) => ({
      ws,
      members: await listMembers(db(), user.id, ws.id),
      invitations: can(ws.role, "manage") ? await listInvitations(db(), user.id, ws.id) : [],
      webhooks: ws.role === "owner" ? await listWebhooks(db(), user.id, ws.id) : null,
      secrets: await listSecrets(db(), user.id, ws.id),
      library: await listLibrary(env().WORKSPACES_DIR, ws.id),
    })),
  );
  const instance = admin ? await instanceOverview(db(), user.id) : null;
  const keys = await listApiKeys(db(), user.id);
  return (
    <main>
      <h1>Settings</h1>
      {invitations.length > 0 ? <MyInvitations invitations={invitations} /> : null}
      <p>
        <Link href="/settings/mcp" data-testid="settings-mcp-link">
          MCP servers
        </Link>
        <span className="muted">: tools from Model Context Protocol servers for your workspaces' flows.</span>
      </p>
      <h2>Model providers</h2>
      <p className="muted">
        With nothing configured here, runs use the server's environment (<code>OPENAI_API_KEY</code>, <code>ANTHROPIC_API_KEY</code>, <code>OPENAI_COMPATIBLE_BASE_URL</code>) and, without those, the
        built-in offline model. API keys are encrypted at rest (AES-256-GCM) and never sent back to the browser.
      </p>
      {PROVIDERS.map((p) => (
        <ProviderForm key={p.provider} provider={p.provider} label={p.label} needsUrl={p.needsUrl} saved={saved.find((s) => s.provider === p.provider) ?? null} />
      ))}
      {saved
        .filter((s) => !PROVIDERS.some((p) => p.provider === s.provider))
        .map((s) => (
          <ProviderForm key={s.provider} provider={s.provider} label={`${s.provider} (OpenAI-compatible)`} needsUrl saved={s} naming="fixed" />
        ))}
      <ProviderForm key="named-new" provider="named-new" label="Another OpenAI-compatible server, under its own name (docs/models.md)" needsUrl saved={null} naming="new" />
      <h2>Workspaces and members</h2>
      <p className="muted">
        Flows, their runs and approvals belong to a workspace. <strong>Owners</strong> edit flows, run them, decide approvals and manage members; <strong>approvers</strong> run flows and decide
        approvals; <strong>viewers</strong> see. An owner invites people by email; they join only when they accept the invitation here, signed in with that email. There is no sign-up: an instance
        admin creates accounts.
      </p>
      {workspaces.length === 0 ? <p className="muted">You are in no workspace yet; creating a flow gives you one.</p> : null}
      {workspaces.map(({ ws, members, invitations: pending }) => (
        <MembersForm key={ws.id} workspace={ws} members={members} invitations={pending} myUserId={user.id} />
      ))}
      <h2>API keys</h2>
      <p className="muted">
        A key lets code act as you in every JSON API, with your roles, or in one workspace only. Send it as <code>Authorization: Bearer &lt;key&gt;</code> or <code>x-api-key</code>. Keys cannot make
        or revoke keys; that is done here.
      </p>
      <ApiKeys keys={keys} workspaces={workspaces.map(({ ws }) => ({ id: ws.id, name: ws.name }))} />
      <h2>Webhooks</h2>
      <p className="muted">Owners of a workspace can have its approvals and runs POSTed to their own URLs, each request signed with a secret shown once.</p>
      {workspaces.some((w) => w.webhooks) ? null : <p className="muted">You own no workspace: only owners manage webhooks.</p>}
      {workspaces.map(({ ws, webhooks }) => (webhooks ? <WebhooksSection key={ws.id} workspace={ws} webhooks={webhooks} /> : null))}
      <h2>Secrets</h2>
      <p className="muted">
        Credentials that tools use by name, like <code>{"{{secret:API_TOKEN}}"}</code>, without the model ever seeing them. See docs/secrets.md.
      </p>
      {workspaces.map(({ ws, secrets }) => (
        <SecretsSection key={ws.id} workspace={ws} secrets={secrets} owner={ws.role === "owner"} />
      ))}
      <h2>Library</h2>
      <p className="muted">Files a flow can mount read-only into every thread (flow settings, "Mount the workspace library"). Owners upload text, PDF and DOCX files; every member sees the list.</p>
      {workspaces.map(({ ws, library }) => (
        <LibrarySection key={ws.id} workspace={ws} files={library} canManage={ws.role === "owner"} />
      ))}
      {instance ? <InstanceAdmin accounts={instance.accounts} workspaces={instance.workspaces} /> : null}
    </main>
  );
}
