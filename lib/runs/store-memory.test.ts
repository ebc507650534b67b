import { memoryRunStore } from "./store-memory";
import { runStoreConformance } from "./store.conformance";

runStoreConformance("in memory", async () => {
  const store = memoryRunStore();
  return {
    store,
    threadIds: ["thread-1", "thread-2"],
    flowVersionId: "fv-1",
    async peek(threadId, runId) {
      const t = store.rows.threads.get(threadId);
      return { runStatus: store.rows.runs.get(runId)?.status ?? null, threadStatus: t?.status ?? null, leaseRunId: t?.leaseRunId ?? null, leaseHolder: t?.leaseHolder ?? null };
    },
    cleanup: async () => {},
  };
});
