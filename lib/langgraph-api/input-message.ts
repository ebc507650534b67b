import { AppError } from "../errors";
import { MAX_TASK_CHARS, tooLongText } from "../task-text";

type MessageLike = { role?: unknown; type?: unknown; content?: unknown };

const isHuman = (m: MessageLike): boolean => m.role === "user" || m.role === "human" || m.type === "human" || m.type === "user";

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((p) => (typeof p === "string" ? p : p && typeof p === "object" && (p as { type?: unknown }).type === "text" ? String((p as { text?: unknown }).text ?? "") : "")).join("");
  }
  return "";
}

/**
 * The task or answer a LangGraph run's `input` carries: the text of its last user message
 * (`{ role: "user" }` or `{ type: "human" }`, content as a string or text parts), trimmed;
 * null when the input has no messages at all (docs/langgraph-api.md#runs).
 * @throws AppError unprocessable naming `input.messages` when there are messages but no user
 *   text, or `input` has keys other than `messages` (the graph's other channels are the
 *   engine's own), or the text is over 4,000 chars.
 */
export function inputMessage(input: Record<string, unknown> | null | undefined): string | null {
  if (!input) return null;
  const others = Object.keys(input).filter((k) => k !== "messages");
  if (others.length > 0)
    throw new AppError("unprocessable", "unsupported_input", `input.${others[0]}: a run's input is { messages: [{ role: "user", content }] }; the other state channels are the engine's own.`);
  const messages = input.messages;
  if (!Array.isArray(messages) || messages.length === 0) return null;
  const human = [...messages].reverse().find((m): m is MessageLike => Boolean(m) && typeof m === "object" && isHuman(m as MessageLike));
  const text = human ? textOf(human.content).trim() : "";
  if (!text) throw new AppError("unprocessable", "message_required", 'input.messages: send the task as a user message, e.g. { role: "user", content: "Summarize notes.md" }.');
  if (text.length > MAX_TASK_CHARS) throw new AppError("unprocessable", "message_too_long", `input.messages: ${tooLongText(text.length)}`);
  return text;
}
