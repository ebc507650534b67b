/**
 * The document's tags in reference order, each with one line saying what the group is
 * for. An operation whose tag is not listed here still appears, after these, without a
 * description.
 */
export const TAGS: { name: string; description: string }[] = [
  { name: "Threads", description: "Runs of a flow: create a thread, send messages and decisions, follow its runs, time travel, its workspace files." },
  { name: "Flows", description: "Create flows from templates and manage their immutable versions." },
  { name: "Approvals", description: "The approval inbox: risky tool calls waiting for a human decision." },
  { name: "Memory", description: "Short-term memory of threads and long-term facts of workspaces." },
  { name: "Workspaces", description: "Workspaces, their members and the invitations their owners sent." },
  { name: "Invitations", description: "Invitations addressed to the signed-in account." },
  { name: "API keys", description: "Keys that let programs call this API as their user." },
  { name: "Webhooks", description: "Signed HTTP callbacks when approvals are requested or decided and runs end." },
  { name: "Secrets", description: "Workspace secrets that tools refer to as {{secret:NAME}}, sent only to the hosts each names." },
  { name: "Library", description: "Workspace library files that flows mount read-only into every thread, and search_files cites." },
  {
    name: "LangGraph Platform API",
    description:
      "The LangGraph Platform API for the LangGraph SDK and Agent Inbox: assistants (our flows), threads, state, runs and their streams. Errors are `{ detail, error }`. Any other path under `/api/langgraph` is a Platform endpoint we do not offer: 404 with a `detail` naming it.",
  },
  { name: "Settings", description: "The signed-in user's model providers." },
  { name: "MCP", description: "Model Context Protocol servers of workspaces, and the stdio commands the operator enabled." },
  { name: "Admin", description: "Instance administration (instance admins only)." },
  { name: "Meta", description: "Health and this API description." },
];
