"use client";
import { Plug } from "lucide-react";
import { useRouter } from "next/navigation";
import type { McpServerView } from "@/lib/mcp/servers";
import type { StdioCommandChoice } from "@/lib/mcp/stdio-commands";
import { AddServerForm } from "./add-server-form";
import { ServerCard } from "./server-card";

/**
 * One workspace's MCP servers: the list with status and tools, an empty state that
 * says what MCP is, and for owners the add form, offering the operator's stdio `commands`.
 * Changes go through `/api/workspaces/:id/mcp`; the page re-reads the list after each.
 */
export function McpServers({ workspace, servers, commands }: { workspace: { id: string; name: string; role: string }; servers: McpServerView[]; commands: StdioCommandChoice[] }) {
  const router = useRouter();
  const isOwner = workspace.role === "owner";
  const refresh = () => router.refresh();
  return (
    <section className="stack" data-testid={`mcp-workspace-${workspace.id}`}>
      <h2>
        {workspace.name} <span className="badge">your role: {workspace.role}</span>
      </h2>
      {servers.length === 0 ? (
        <div className="card" data-testid="mcp-empty">
          <Plug className="icon empty-icon" size={28} />
          <p>
            <strong>No MCP servers yet.</strong> An MCP (Model Context Protocol) server offers tools, such as searching a wiki or filing a ticket, that this workspace's agents can then call. Once
            added, its tools appear in the flow editor's palette as <code>mcp__server__tool</code>, and your flow's policies decide them like any other tool: a tool that is not marked read-only counts
            as having side effects and needs a rule or an approval.
          </p>
          <p className="muted small">
            {isOwner ? "Add one below: a Streamable HTTP URL, or one of the commands the operator enabled on this server (stdio)." : "Only owners of this workspace add MCP servers; ask one."}
          </p>
        </div>
      ) : (
        servers.map((s) => <ServerCard key={s.id} workspaceId={workspace.id} server={s} isOwner={isOwner} onChanged={refresh} />)
      )}
      {isOwner ? (
        <div className="card">
          <AddServerForm workspaceId={workspace.id} commands={commands} onAdded={refresh} />
        </div>
      ) : null}
    </section>
  );
}
