import type { Metadata } from "next";
import Link from "next/link";
import { DeleteThreadButton } from "@/components/memory/delete-thread-button";
import { type ForkOrigin, ForkedFrom } from "@/components/run/forked-from";
import { RunView } from "@/components/run/run-view";
import { ThreadTabs } from "@/components/run/thread-tabs";
import { approvalSecret } from "@/lib/approvals/secret";
import { type ChallengeRow, challengeToken } from "@/lib/approvals/service";
import { db } from "@/lib/db/client";
import { prismaRunStore } from "@/lib/runs/store-prisma";
import { getThread } from "@/lib/db/threads";
import { emailsOf } from "@/lib/db/users";
import { workspaceLabel } from "@/lib/db/workspace-labels";
import { can } from "@/lib/auth/roles";
import { roleIn } from "@/lib/auth/membership";
import { ForkedFromEvent, THREAD_FORKED } from "@/lib/runs/fork-thread";
import { withMissingOutcomeCards } from "@/lib/engine/missing-outcome-cards";
import { replayMessages } from "@/lib/runs/replay";
import { redactSecrets } from "@/lib/engine/safe-state";
import type { RunUIMessage } from "@/lib/events/ui-parts";
import { FlowDocument } from "@/lib/flow/schema";
import { orNotFound } from "@/lib/http/or-not-found";
import { isAppError } from "@/lib/errors";
import { currentUser, requireUser } from "@/lib/http/with-user";
import { threadStatusShown } from "@/lib/run-status";

export const dynamic = "force-dynamic";

/** The tab's title is the thread's task ("Summarize notes.md… · Phylactery"); "Run" when it cannot be shown. */
export async function generateMetadata({ params }: { params: Promise<{ threadId: string }> }): Promise<Metadata> {
  const user = await currentUser();
  const { threadId } = await params;
  if (!user) return { title: "Run" };
  try {
    const { title } = await getThread(db(), user.id, threadId);
    return { title: title.length > 60 ? `${title.slice(0, 60)}…` : title };
  } catch (err) {
    // The page itself answers 404 for a thread the user may not see.
    if (isAppError(err) && err.code === "not_found") return { title: "Run" };
    throw err;
  }
}

/**
 * The replay for users who may not decide: approval cards without their one-time tokens,
 * and every other token redacted, including one typed into the chat as
 * `APPROVE <id> <token>` (docs/security.md "Secrets at rest").
 */
function withoutTokens(messages: RunUIMessage[]): RunUIMessage[] {
  return redactSecrets(
    messages.map((m) => ({
      ...m,
      parts: m.parts.map((p) => (p.type === "data-approval" ? { ...p, data: { ...p.data, token: "" } } : p)),
    })),
  );
}

/**
 * The replay for users who may decide: stored approval cards carry no token (docs/security.md
 * "Secrets at rest"), so each pending, unexpired challenge's token is recomputed from it.
 */
function withLiveTokens(messages: RunUIMessage[], approvals: (ChallengeRow & { status: string })[], now: number): RunUIMessage[] {
  const live = new Map(approvals.filter((a) => a.status === "pending" && a.expiresAt.getTime() > now).map((a) => [a.id, a]));
  if (live.size === 0) return messages;
  const secret = approvalSecret();
  return messages.map((m) => ({
    ...m,
    parts: m.parts.map((p) => {
      const a = p.type === "data-approval" ? live.get(p.data.approvalId) : undefined;
      return a && p.type === "data-approval" ? { ...p, data: { ...p.data, token: challengeToken(secret, a) } } : p;
    }),
  }));
}

/** The run whose last run part in `messages` says it is running, or null. */
function runningRunOf(messages: RunUIMessage[]): string | null {
  const last = messages.flatMap((m) => m.parts).findLast((p) => p.type === "data-run");
  return last?.type === "data-run" && last.data.status === "running" ? last.data.runId : null;
}

/** The fork's origin as its `thread_forked` run event recorded it (lib/runs/fork-thread.ts), or null. */
function forkOriginOf(events: { type: string; data: string }[]): ForkOrigin | null {
  const row = events.find((e) => e.type === THREAD_FORKED);
  if (!row) return null;
  const parsed = ForkedFromEvent.safeParse((JSON.parse(row.data) as { payload?: unknown }).payload);
  return parsed.success ? parsed.data : null;
}

/**
 * Run view of a thread: replays its stored events (so it survives reloads and restarts),
 * shows the live stream of new runs, approval cards, the choice on a call whose outcome is
 * unknown after a crash, and the workspace, and, in a second tab,
 * its checkpoints (time travel: the state at each, fork from here). A fork shows
 * where it came from. Members of the flow's workspace see it; approvers and owners decide
 * its approvals (viewers get no tokens) and may fork it; only the user who started it sends
 * messages. Other workspaces' threads are a 404. A third tab shows the thread's memory;
 * the thread's own user or a workspace owner may delete the thread.
 */
export default async function ThreadPage({ params, searchParams }: { params: Promise<{ threadId: string }>; searchParams: Promise<{ agent?: string }> }) {
  const user = await requireUser();
  const { threadId } = await params;
  const { agent } = await searchParams;
  const thread = await orNotFound(getThread(db(), user.id, threadId));
  const version = await db().flowVersion.findUniqueOrThrow({ where: { id: thread.flowVersionId }, select: { document: true } });
  const doc = FlowDocument.parse(JSON.parse(version.document));
  const agents = doc.nodes.flatMap((n) => (n.type === "agent" ? [{ id: n.id, name: n.data.name, icon: n.data.icon, color: n.data.color }] : []));
  const events = await prismaRunStore(db()).events({ threadId });
  const approvals = await db().approval.findMany({
    where: { threadId },
    select: { id: true, status: true, decision: true, expiresAt: true, threadId: true, userId: true, toolName: true, argsHash: true, createdAt: true },
  });
  const now = Date.now();
  const approvalStates = Object.fromEntries(approvals.map((a) => [a.id, { status: a.status === "pending" && a.expiresAt.getTime() <= now ? "expired" : a.status, decision: a.decision }]));
  const canDecide = can(thread.role, "decide");
  const canMessage = thread.userId === user.id;
  const requester = canMessage ? user.email : ((await emailsOf(db(), [thread.userId])).get(thread.userId) ?? "the user");
  // Side-effecting calls' records: whether an unknown outcome was chosen for, and the card
  // of one the thread waits on that no stored event shows.
  const executions = await db().toolExecution.findMany({
    where: { threadId },
    select: { toolCallId: true, toolName: true, argsHash: true, approvalId: true, stepId: true, agentId: true, status: true, attempt: true, startedAt: true },
  });
  const outcomes = Object.fromEntries(executions.map((e) => [e.toolCallId, { status: e.status, attempt: e.attempt }]));
  const replayed = withMissingOutcomeCards(replayMessages(events), executions, thread.status);
  // The run under way, which the view follows by id once hydrated: the thread's active run, or
  // else the run the events read above show running (it has ended since).
  const followRunId = thread.status === "running" ? ((await prismaRunStore(db()).activeRun(threadId)) ?? runningRunOf(replayed)) : null;
  const origin = thread.forkedFromThreadId ? forkOriginOf(events) : null;
  // The origin is linked while it exists in a workspace the user belongs to.
  const originThread = origin ? await db().thread.findUnique({ where: { id: origin.fromThreadId }, select: { flow: { select: { workspaceId: true } } } }) : null;
  const originVisible = Boolean(originThread && (await roleIn(db(), user.id, originThread.flow.workspaceId)));
  const canDelete = thread.userId === user.id || thread.role === "owner";
  const workspaceName = await workspaceLabel(db(), user.id, thread.flow.workspaceId);
  return (
    <main className="wide">
      <p className="small muted">
        <Link href="/flows">Flows</Link> /{" "}
        {workspaceName ? (
          <>
            <span data-testid="thread-workspace">{workspaceName}</span> /{" "}
          </>
        ) : null}
        <Link href={`/flows/${thread.flowId}`}>{thread.flow.name}</Link> v{thread.flowVersion.version} ·{" "}
        <Link href={`/threads/${thread.id}/audit`} data-testid="audit-link">
          audit trail
        </Link>
      </p>
      <div className="row">
        <h1 data-testid="thread-title">{thread.title}</h1>
        <div className="stack">
          <DeleteThreadButton
            threadId={thread.id}
            title={thread.title}
            disabledReason={canDelete ? undefined : `Only ${requester}, who started this thread, or an owner of its workspace can delete it.`}
          />
        </div>
      </div>
      {origin ? <ForkedFrom origin={origin} originVisible={originVisible} /> : null}
      <ThreadTabs
        threadId={thread.id}
        canFork={can(thread.role, "run")}
        memory={{
          workspaceId: thread.flow.workspaceId,
          threadStatus: thread.status,
          agents,
          canEdit: can(thread.role, "decide"),
          canErase: canDelete,
          canSummarize: canMessage || can(thread.role, "decide"),
          settings: doc.settings.memory,
        }}
      >
        <RunView
          threadId={thread.id}
          initialMessages={canDecide ? withLiveTokens(replayed, approvals, now) : withoutTokens(replayed)}
          initialStatus={thread.status}
          followRunId={followRunId}
          approvals={approvalStates}
          outcomes={outcomes}
          autoStartTask={canMessage && events.length === 0 && thread.status === "idle" ? (thread.task ?? thread.title) : null}
          agents={agents}
          interrupted={threadStatusShown(thread) === "interrupted"}
          initialAgent={agents.some((a) => a.id === agent) ? (agent ?? null) : null}
          canDecide={canDecide}
          canMessage={canMessage}
          requestedBy={requester}
          forked={Boolean(thread.forkedFromThreadId)}
          workspaceId={thread.flow.workspaceId}
        />
      </ThreadTabs>
    </main>
  );
}
