import type { ApiOperation } from "@/lib/openapi/operation";

/**
 * LangGraph Platform API operations under `/api/langgraph` (assistants, threads, runs; tag
 * "LangGraph"). Empty until those routes land: append one {@link ApiOperation} per exported
 * method of each route file (see lib/openapi/operation.ts for the shape). Their errors are
 * `{ detail }`, not the app's error body: give each error response its own `schema`
 * (e.g. `{ type: "object", properties: { detail: { type: "string" } } }`), which the
 * document keeps instead of the default error body.
 */
export const langgraphOperations: ApiOperation[] = [];
