import type { RunUIMessage } from "../events/ui-parts";

/** A stored run event as the run view replays it. */
export interface StoredEvent {
  runId: string | null;
  seq: number;
  type: string;
  /** JSON text: `{ text, kind }` for "user_message", else the stream chunk (or `{ type: "event" }` for an extra event). */
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
    // Rows are named by event (lib/events/run-events.ts); the chunk's own type drives replay.
    const type = typeof data.type === "string" ? data.type : ev.type;
    if (type === "event") continue;
    if (ev.type === "user_message" || ev.type === "user-message") {
      out.push({ id: `user-${runId}`, role: "user", parts: [{ type: "text", text: String(data.text ?? "") }] });
      continue;
    }
    let msg = assistants.get(runId);
    if (!msg) {
      msg = { id: `run-${runId}`, role: "assistant", parts: [] };
      assistants.set(runId, msg);
      out.push(msg);
    }
    if (type === "text") {
      msg.parts.push({ type: "text", text: String(data.text ?? ""), state: "done" });
      continue;
    }
    if (!type.startsWith("data-")) continue;
    const part = { type, id: String(data.id ?? ""), data: data.data } as Part;
    const at = msg.parts.findIndex((p) => p.type === type && "id" in p && p.id === data.id);
    if (at >= 0) msg.parts[at] = part;
    else msg.parts.push(part);
  }
  return out;
}
