import { workspaceAssistant } from "../../templates/workspace-assistant";
import { createFlow } from "../db/flows";
import { createTestDb } from "../db/test-db";
import { createThread } from "../db/threads";
import { prismaToolExecutions } from "./tool-executions-prisma";
import { toolExecutionConformance } from "./tool-executions.conformance";

toolExecutionConformance("SQLite", async () => {
  const t = await createTestDb();
  const user = await t.db.user.create({ data: { email: "ada@test.dev", name: "Ada" } });
  const flow = await createFlow(t.db, user.id, workspaceAssistant);
  const thread = await createThread(t.db, user.id, flow.id, "Post the report");
  return { store: prismaToolExecutions(t.db), threadId: thread.id, user: { id: user.id, name: "Ada" }, cleanup: t.cleanup };
});
