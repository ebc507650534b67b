import type { Metadata } from "next";
import Link from "next/link";
import { McpServers } from "@/components/mcp/mcp-servers";
import { db } from "@/lib/db/client";
import { listWorkspaces } from "@/lib/db/members";
import { requireUser } from "@/lib/http/with-user";
import { listServers } from "@/lib/mcp/servers";
import { stdioCommandChoices } from "@/lib/mcp/stdio-commands";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "MCP servers" };

/**
 * Settings → MCP servers: per workspace I belong to, its MCP servers with their
 * status and tools; owners add, refresh and remove them. Secrets are never sent back.
 */
export default async function McpSettingsPage() {
  const user = await requireUser();
  const commands = stdioCommandChoices();
  const workspaces = await Promise.all((await listWorkspaces(db(), user.id)).map(async (ws) => ({ ws, servers: await listServers(db(), user.id, ws.id) })));
  return (
    <main data-testid="mcp-page">
      <p className="small">
        <Link href="/settings">← Settings</Link>
      </p>
      <h1>MCP servers</h1>
      <p className="muted">
        Tools from Model Context Protocol servers, for the flows of a workspace. Their tools are listed when a server is added and when you press Refresh; runs call them through the same gateway
        (input checked against the tool's schema, 30 s timeout) and the same policies as built-in tools.
      </p>
      {workspaces.length === 0 ? <p className="muted">You are in no workspace yet; creating a flow gives you one.</p> : null}
      {workspaces.map(({ ws, servers }) => (
        <McpServers key={ws.id} workspace={ws} servers={servers} commands={commands} />
      ))}
    </main>
  );
}
