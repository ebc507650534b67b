import "server-only";
import type { StateSnapshot } from "@langchain/langgraph";
import type { Db } from "../db/client";
import { historyGraph } from "../engine/time-travel";
import type { StateReader } from "./run-stream";

const idOf = (s: StateSnapshot | undefined): string | null => (s?.config?.configurable?.checkpoint_id as string | undefined) ?? null;

/** Most checkpoints one read of a thread's history walks back (a run writes a few per step). */
const HISTORY_PAGE = 500;

/**
 * Reads a thread's checkpoints for a run stream (lib/langgraph-api/run-stream.ts) through the
 * thread's own graph and checkpointer, read-only (lib/engine/time-travel.ts historyGraph: no
 * model, no tools). `values` and `interrupts` map a snapshot the way the thread state routes
 * do, for this caller (docs/langgraph-api.md#threads).
 */
export function threadStateReader(db: Db, thread: { id: string; flowVersion: { document: string } }, view: Pick<StateReader, "values" | "interrupts">): StateReader {
  const { graph } = historyGraph(db, thread.flowVersion.document);
  const config = { configurable: { thread_id: thread.id } };
  return {
    ...view,
    async since(checkpointId) {
      const newestFirst: StateSnapshot[] = [];
      for await (const s of graph.getStateHistory(config, { limit: HISTORY_PAGE })) {
        if (checkpointId !== null && idOf(s) === checkpointId) {
          newestFirst.push(s);
          break;
        }
        newestFirst.push(s);
      }
      const out: { snapshot: StateSnapshot; parent: StateSnapshot | null }[] = [];
      for (let i = newestFirst.length - 1; i >= 0; i--) {
        const snapshot = newestFirst[i] as StateSnapshot;
        if (checkpointId !== null && idOf(snapshot) === checkpointId) continue;
        out.push({ snapshot, parent: newestFirst[i + 1] ?? null });
      }
      return out;
    },
    latest: () => graph.getState(config),
  };
}
