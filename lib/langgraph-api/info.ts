import pkg from "../../package.json";

/**
 * `GET /info` of the LangGraph Platform API (docs/langgraph-api.md#info): what the server
 * offers, for clients that check before they call (Agent Inbox, LangGraph Studio). Public and
 * free of secrets: versions and flags only.
 */
export function serverInfo() {
  return {
    version: pkg.version,
    langgraph_js_version: pkg.dependencies["@langchain/langgraph"],
    flags: { assistants: true, crons: false, langsmith: false, langsmith_tracing: false },
    host: { kind: "phylactery", project_id: null, revision_id: pkg.version, tenant_id: null },
  };
}
