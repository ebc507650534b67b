"use client";
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { useMemo, useRef, useState } from "react";
import { type HeldStepText, placeStepText } from "@/lib/events/live-pieces";
import type { RunUIMessage } from "@/lib/events/ui-parts";

/**
 * The thread's chat through the AI SDK (docs/runs.md "Streaming"): messages and decisions are
 * POSTed to `/api/threads/:id/stream` as `{ input }` (the `input` of `sendMessage`'s body);
 * resuming GETs the same URL for the active run, or `?runId=` for the run named in the
 * resume's body (204 when none). A page loaded while a run is under way (`follow`) follows it
 * from its first event: the run the page saw (`followRunId`) when it names one, so that a run
 * ending between the page's render and the follow's request is still followed to its end (a
 * follow of "the active run" would then find none, and the view would show it running).
 * `stepText` holds each running step's text as its agent writes it,
 * from transient `data-steptext` parts placed by offset: shown on the step until it ends,
 * never part of a message.
 */
export function useRunChat<Input>(threadId: string, initialMessages: RunUIMessage[], follow: boolean, followRunId: string | null = null) {
  /** The run the first follow names when its request names none (the page's automatic resume). */
  const firstFollow = useRef(follow ? followRunId : null);
  const transport = useMemo(
    () =>
      new DefaultChatTransport<RunUIMessage>({
        api: `/api/threads/${threadId}/stream`,
        prepareSendMessagesRequest: ({ body }) => ({ body: { input: (body as { input?: Input } | undefined)?.input } }),
        prepareReconnectToStreamRequest: ({ body }) => {
          const named = (body as { runId?: unknown } | undefined)?.runId;
          const runId = typeof named === "string" ? named : firstFollow.current;
          firstFollow.current = null;
          return { api: `/api/threads/${threadId}/stream${typeof runId === "string" ? `?runId=${encodeURIComponent(runId)}` : ""}` };
        },
      }),
    [threadId],
  );
  const [stepText, setStepText] = useState<Record<string, HeldStepText>>({});
  const chat = useChat<RunUIMessage>({
    id: threadId,
    messages: initialMessages,
    transport,
    resume: follow,
    onData: (part) => {
      if (part.type !== "data-steptext" || !part.id) return;
      const { stepId, at, delta } = part.data;
      const id = part.id;
      setStepText((held) => {
        const next = placeStepText(held[stepId], id, at, delta);
        return next === held[stepId] || !next ? held : { ...held, [stepId]: next };
      });
    },
  });
  return { ...chat, stepText, busy: chat.status === "submitted" || chat.status === "streaming" };
}
