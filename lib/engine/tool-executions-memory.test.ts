import { memoryToolExecutions } from "./tool-executions-memory";
import { toolExecutionConformance } from "./tool-executions.conformance";

toolExecutionConformance("in memory", async () => ({
  store: memoryToolExecutions({ "user-1": "Ada" }),
  threadId: "thread-1",
  user: { id: "user-1", name: "Ada" },
  cleanup: async () => {},
}));
