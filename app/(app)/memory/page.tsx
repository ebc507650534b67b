import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { AddFactForm } from "@/components/memory/add-fact-form";
import type { FactRow } from "@/components/memory/fact-card";
import { FactList } from "@/components/memory/fact-list";
import { MemoryExplainer, NoMatch, NoMemory, NoWorkspace } from "@/components/memory/memory-empty";
import { MemoryFilters } from "@/components/memory/memory-filters";
import { FACT_STATUSES, type MemoryQuery, memoryHref } from "@/components/memory/memory-url";
import { db } from "@/lib/db/client";
import { listWorkspaces } from "@/lib/db/members";
import { emailsOf } from "@/lib/db/users";
import { can } from "@/lib/auth/roles";
import { requireUser } from "@/lib/http/with-user";
import { embedderFromEnv } from "@/lib/memory/embeddings";
import { listFacts, searchFacts } from "@/lib/memory/long-term";
import type { FactView, RetrievedFact } from "@/lib/memory/types";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Memory" };

type SearchParams = Record<string, string | string[] | undefined>;

/** How many facts the page lists; a search (or a tag) lists its best matches (the search's maximum). */
const LIST_LIMIT = 200;
const SEARCH_LIMIT = 100;

const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "expected an id of 1-64 letters, digits, - or _");

/** The page's URL search params, each validated on its own. */
const Query = {
  workspace: id,
  q: z.string().trim().max(200, "searches are at most 200 characters"),
  status: z.enum(FACT_STATUSES),
  tag: z.string().trim().toLowerCase().max(60, "tags are at most 60 characters"),
  fact: id,
} as const;

/** Parses the search params; a bad value is dropped with a note saying why, so a mistyped link still shows the page. */
function parseQuery(params: SearchParams): { query: MemoryQuery; notes: string[] } {
  const query: Record<string, string> = {};
  const notes: string[] = [];
  for (const key of Object.keys(Query) as (keyof typeof Query)[]) {
    const raw = params[key];
    const value = (Array.isArray(raw) ? raw.at(-1) : raw)?.trim();
    if (!value) continue;
    const parsed = Query[key].safeParse(value);
    if (parsed.success) query[key] = parsed.data;
    else notes.push(`Ignored ${key}="${value.length > 40 ? `${value.slice(0, 40)}…` : value}": ${parsed.error.issues[0]?.message ?? "not valid"}.`);
  }
  return { query: query as MemoryQuery, notes };
}

/** What the filters ask for, in words ("search “format”, status proposed, tag reports"). */
function describe(query: MemoryQuery): string {
  return [query.q ? `search “${query.q}”` : null, query.status && query.status !== "all" ? `status ${query.status}` : null, query.tag ? `tag ${query.tag}` : null].filter(Boolean).join(", ");
}

/**
 * Resolves each fact's provenance for display: its source thread when it still exists in
 * this workspace (else "thread deleted"), and the email of who added or promoted it.
 */
async function withProvenance(facts: (FactView | RetrievedFact)[], workspaceId: string, searched: boolean): Promise<FactRow[]> {
  const threadIds = [...new Set(facts.flatMap((f) => (f.source.threadId ? [f.source.threadId] : [])))];
  const threads = threadIds.length ? await db().thread.findMany({ where: { id: { in: threadIds } }, select: { id: true, title: true, flow: { select: { workspaceId: true } } } }) : [];
  const byId = new Map(threads.map((t) => [t.id, t]));
  const emails = await emailsOf(
    db(),
    facts.map((f) => f.createdById),
  );
  return facts.map((fact) => {
    const t = fact.source.threadId ? byId.get(fact.source.threadId) : undefined;
    return {
      fact,
      match: searched && "score" in fact ? { score: fact.score, via: fact.via } : null,
      thread: t && t.flow.workspaceId === workspaceId ? { id: t.id, title: t.title } : null,
      threadDeleted: Boolean(fact.source.threadId && !t),
      by: fact.createdById ? (emails.get(fact.createdById) ?? null) : null,
    };
  });
}

/**
 * The memory page (docs/architecture.md#memory): the long-term facts of one workspace (a picker when
 * the user is in several), searchable (score and whether found lexically or semantically),
 * filtered by status and tag, each with its origin and provenance; owners and approvers
 * accept proposed facts, forget facts (with a confirmation) and add facts by hand. Every
 * filter is in the URL (`?workspace=&q=&status=&tag=&fact=`).
 */
export default async function MemoryPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireUser();
  const { query, notes } = parseQuery(await searchParams);
  const workspaces = await listWorkspaces(db(), user.id);
  if (workspaces.length === 0) {
    return (
      <main className="wide">
        <h1>Memory</h1>
        <NoWorkspace />
      </main>
    );
  }
  let ws = workspaces.find((w) => w.id === query.workspace);
  if (query.workspace && !ws) notes.push(`Ignored workspace="${query.workspace}": you are not a member of a workspace with that id.`);
  ws ??= workspaces.find((w) => w.role === "owner") ?? workspaces[0];
  if (!ws) throw new Error("unreachable: the user has workspaces");
  const current: MemoryQuery = { ...query, workspace: ws.id };
  const status = query.status && query.status !== "all" ? query.status : undefined;

  // A search or a tag goes through search (lexical, and semantic with an embedding model); else the newest facts.
  let facts: (FactView | RetrievedFact)[] =
    query.q || query.tag
      ? await searchFacts(db(), {
          workspaceId: ws.id,
          query: query.q ?? "",
          embedder: embedderFromEnv(),
          limit: SEARCH_LIMIT,
          ...(status ? { status } : {}),
          ...(query.tag ? { filters: { tags: [query.tag] } } : {}),
        })
      : await listFacts(db(), { workspaceId: ws.id, limit: LIST_LIMIT, ...(status ? { status } : {}) });
  let factMissing = false;
  if (query.fact) {
    const one = facts.filter((f) => f.id === query.fact);
    factMissing = one.length === 0;
    facts = one;
  }
  const rows = await withProvenance(facts, ws.id, Boolean(query.q));
  const canEdit = can(ws.role, "remember");
  const filtered = Boolean(query.q || status || query.tag);

  return (
    <main className="wide">
      <div className="row">
        <h1>Memory</h1>
        <span className="small muted" data-testid="memory-count">
          {workspaces.length > 1 ? `${ws.name} · ` : ""}
          {query.fact ? "one fact" : `${rows.length}${rows.length === (query.q || query.tag ? SEARCH_LIMIT : LIST_LIMIT) ? "+" : ""} fact${rows.length === 1 ? "" : "s"}`}
          {query.q ? " · best matches first" : " · newest first"}
        </span>
      </div>
      <MemoryExplainer />
      {notes.length ? (
        <ul className="card small muted" data-testid="memory-notes">
          {notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      <MemoryFilters key={memoryHref(current)} query={current} workspaces={workspaces} />
      {query.fact ? (
        <p className="small" data-testid="memory-one-fact">
          {factMissing ? "That fact is no longer in memory: it was forgotten, or it does not match the filters. " : "Showing one fact. "}
          <Link href={memoryHref({ ...current, fact: undefined })}>Show every fact</Link>
        </p>
      ) : null}
      <FactList rows={rows} workspaceId={ws.id} canEdit={canEdit} empty={query.fact ? null : filtered ? <NoMatch what={describe(query)} workspaceId={ws.id} /> : <NoMemory canEdit={canEdit} />} />
      <AddFactForm workspaceId={ws.id} canEdit={canEdit} />
    </main>
  );
}
