// POST /api/threads/:threadId/stream - run the thread's graph on a message or an approval decision; streams UI message chunks.
import { createUIMessageStream, createUIMessageStreamResponse } from "ai";
import { after } from "next/server";
import { db } from "@/lib/db/client";
import { tellExpiredRuns } from "@/lib/engine/expiry-sweeper";
import { prepareRun } from "@/lib/engine/run-thread";
import { isAppError } from "@/lib/errors";
import type { RunUIMessage } from "@/lib/engine/ui-parts";
import { withUser } from "@/lib/http/with-user";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withUser({ params: Params, body: Body }, async (_req, { user, params, body }) => {
  // Every refusal (403, 404, 409, 410, 422) happens here, before the stream starts.
  const run = await prepareRun({ db: db(), threadId: params.threadId, userId: user.id, input: body.input }).catch((err: unknown) => {
    // A decision on an expired challenge: answer 410 now, and tell the run right after.
    if (isAppError(err) && err.reason === "approval_expired") after(() => tellExpiredRuns(db()).then(() => undefined));
    throw err;
  });
  const stream = createUIMessageStream<RunUIMessage>({
    async execute({ writer }) {
      writer.write({ type: "start", messageId: `run-${run.runId}` });
      for await (const chunk of run.stream()) {
        if (chunk.type === "text") {
          writer.write({ type: "text-start", id: chunk.id });
          writer.write({ type: "text-delta", id: chunk.id, delta: chunk.text });
          writer.write({ type: "text-end", id: chunk.id });
        } else {
          writer.write(chunk);
        }
      }
      writer.write({ type: "finish" });
    },
    onError: (err) => (err instanceof Error ? err.message : "The run failed; see the server log."),
  });
  return createUIMessageStreamResponse({ stream });
});
