import { redactSecrets } from "../engine/safe-state";

/**
 * Thread messages as the LangGraph Platform serialises LangChain messages
 * (docs/langgraph-api.md#values): the dicts `useStream` and Agent Inbox read. Our state keeps
 * plain `{ role, content }` chat messages (lib/engine/state.ts ChatMessage) without ids; a
 * message's id is its place in the thread, so every reader (state, history, streams) names
 * it alike.
 */

/** A LangChain message dict (`BaseMessage.toDict()` as the Platform sends it, flattened). */
export interface PlatformMessage {
  type: "human" | "ai" | "tool" | "system";
  content: string;
  id: string;
  name?: string;
  tool_calls?: { id: string; name: string; args: Record<string, unknown>; type: "tool_call" }[];
  invalid_tool_calls?: unknown[];
  tool_call_id?: string;
  additional_kwargs: Record<string, unknown>;
  response_metadata: Record<string, unknown>;
}

/** A chat message as it may sit in the state: ours (`role`), or already LangChain-shaped (`type`). */
export interface StoredMessage {
  role?: string;
  type?: string;
  content?: unknown;
  name?: string;
  tool_call_id?: string;
  toolCallId?: string;
}

const TYPE: Record<string, PlatformMessage["type"]> = { user: "human", human: "human", assistant: "ai", ai: "ai", tool: "tool", system: "system" };

/**
 * The id of a thread's message at `index` (0-based): `<thread id>:message:<index>`. Stable
 * across reads, so a client merging messages by id sees the same message once.
 */
export function messageId(threadId: string, index: number): string {
  return `${threadId}:message:${index}`;
}

/** Text of a message's content: strings as they are, AI SDK / LangChain parts' text joined. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p) => (typeof p === "string" ? p : p && typeof p === "object" && "text" in p && typeof p.text === "string" ? p.text : "")).join("");
  return content === undefined || content === null ? "" : JSON.stringify(content);
}

/**
 * A thread's messages as LangChain message dicts: user -> `human`, assistant -> `ai` (with
 * empty `tool_calls`), tool and system kept; ids from {@link messageId}. Approval tokens typed
 * into the chat (`APPROVE <id> <token>`) are redacted (lib/engine/safe-state.ts).
 */
export function platformMessages(threadId: string, messages: readonly StoredMessage[]): PlatformMessage[] {
  return messages.map((m, i) => {
    const type = TYPE[m.type ?? m.role ?? ""] ?? "human";
    const base: PlatformMessage = { type, content: redactSecrets(textOf(m.content)), id: messageId(threadId, i), additional_kwargs: {}, response_metadata: {} };
    if (m.name) base.name = m.name;
    if (type === "ai") return { ...base, tool_calls: [], invalid_tool_calls: [] };
    const callId = m.tool_call_id ?? m.toolCallId;
    if (type === "tool" && callId) return { ...base, tool_call_id: callId };
    return base;
  });
}
