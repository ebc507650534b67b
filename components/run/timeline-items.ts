import type { RunUIMessage } from "@/lib/events/ui-parts";
import type { TimelineItem } from "./timeline";

/**
 * Flattens the messages into one timeline: user messages, and every assistant part, where
 * a data part with the same type and id as an earlier one (in any message) updates that
 * item in place, so a step, tool call or approval card changes status where it first
 * appeared. A tool call carries the agent that proposed it.
 */
export function timeline(messages: RunUIMessage[]): TimelineItem[] {
  const items: TimelineItem[] = [];
  const index = new Map<string, number>();
  for (const m of messages) {
    for (const [i, part] of m.parts.entries()) {
      if (m.role === "user") {
        if (part.type === "text") items.push({ key: `${m.id}-${i}`, kind: "user", text: part.text });
        continue;
      }
      if (part.type === "text") {
        // An answer still being written grows as its deltas arrive (docs/runs.md "Streaming").
        items.push({ key: `${m.id}-${i}`, kind: "text", text: part.text, streaming: part.state === "streaming" });
        continue;
      }
      if (!part.type.startsWith("data-") || !("id" in part) || !part.id || !("data" in part)) continue;
      const key = `${part.type}:${part.id}`;
      const item = { key, kind: part.type, data: part.data } as TimelineItem;
      const at = index.get(key);
      if (at === undefined) {
        index.set(key, items.length);
        items.push(item);
      } else {
        items[at] = item;
      }
    }
  }
  return items;
}
