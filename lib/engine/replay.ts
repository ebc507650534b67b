import type { RunUIMessage } from "./ui-parts";

/** A stored run event as the run view replays it. */
export interface StoredEvent {
  runId: string | null;
  seq: number;
  type: string;
  /** JSON text: `{ text }` for "user-message", else the stream chunk itself. */
  data: string;
}

type Part = RunUIMessage["parts"][number];

/**
 * Rebuilds the run view's UI messages from stored run events (ordered by seq), so a
 * reloaded page (or one opened after a server restart) shows the same timeline the stream
 * showed: per run, the user's message, then one assistant message whose data parts with
 * the same type and id were replaced in place, as the AI SDK does while streaming.
 */
export function replayMessages(events: StoredEvent[]): RunUIMessage[] {
  const out: RunUIMessage[] = [];
  const assistants = new Map<string, RunUIMessage>();
  for (const ev of [...events].sort((a, b) => a.seq - b.seq)) {
    const runId = ev.runId ?? "none";
    const data = JSON.parse(ev.data) as Record<string, unknown>;
    if (ev.type === "user-message") {
      out.push({ id: `user-${runId}`, role: "user", parts: [{ type: "text", text: String(data.text ?? "") }] });
      continue;
    }
    let msg = assistants.get(runId);
    if (!msg) {
      msg = { id: `run-${runId}`, role: "assistant", parts: [] };
      assistants.set(runId, msg);
      out.push(msg);
    }
    if (ev.type === "text") {
      msg.parts.push({ type: "text", text: String(data.text ?? ""), state: "done" });
      continue;
    }
    if (!ev.type.startsWith("data-")) continue;
    const part = { type: ev.type, id: String(data.id ?? ""), data: data.data } as Part;
    const at = msg.parts.findIndex((p) => p.type === ev.type && "id" in p && p.id === data.id);
    if (at >= 0) msg.parts[at] = part;
    else msg.parts.push(part);
  }
  return out;
}
