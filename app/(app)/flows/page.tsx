import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { FilterNotes, NoFlows, NoMatch, NoRuns } from "@/components/dashboard/dashboard-empty";
import { DashboardFilters } from "@/components/dashboard/dashboard-filters";
import { DashboardTotals } from "@/components/dashboard/dashboard-totals";
import { type DashboardQuery, dashboardHref, STATUS_LABEL } from "@/components/dashboard/dashboard-url";
import { InvitationsNotice } from "@/components/dashboard/invitations-notice";
import { NewFlowButton } from "@/components/dashboard/new-flow-button";
import { RefreshWhileRunning } from "@/components/dashboard/refresh-while-running";
import { RunsPager, ThreadTable } from "@/components/dashboard/thread-table";
import { StartRunForm } from "@/components/run/start-run-form";
import { db } from "@/lib/db/client";
import { dashboardCounts, dashboardTotals, listThreads, ThreadStatus } from "@/lib/db/dashboard";
import { listFlows } from "@/lib/db/flows";
import { myInvitations } from "@/lib/db/invitation-answers";
import { newFlowTargets } from "@/lib/db/new-flow-workspace";
import { flowWorkspaceLabels } from "@/lib/db/workspace-labels";
import { can, type Role } from "@/lib/auth/roles";
import { requireUser } from "@/lib/http/with-user";
import { NEW_FLOW_TEMPLATES, starterAbout, suggestedTask } from "@/templates";
import { ThreadDeletedNotice } from "@/components/memory/thread-deleted-notice";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Flows" };

/** A role's name on the card of a flow the user does not own (owners can do everything). */
const ROLE_LABEL: Record<Role, string> = { owner: "Owner", approver: "Approver", viewer: "Viewer" };
/** What a role may do with a flow, as the role badge's tooltip says (lib/auth/roles.ts `can`). */
const ROLE_CAN: Record<Role, string> = {
  owner: "You own this flow's workspace: you edit, run and decide approvals.",
  approver: "You run this flow and decide its approvals; only owners edit it.",
  viewer: "You watch this flow and its runs; ask an owner for the approver role to run it, or the owner role to edit it.",
};

type SearchParams = Record<string, string | string[] | undefined>;

const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "expected an id of 1-64 letters, digits, - or _");

/** The dashboard's URL search params, each validated on its own. */
const Query = {
  status: ThreadStatus,
  flow: id,
  q: z.string().trim().max(200, "searches are at most 200 characters"),
  cursor: id,
} as const;

/**
 * Parses the search params; a bad value is dropped with a note saying why, so that a
 * mistyped link still shows the dashboard, never an error page.
 */
function parseQuery(params: SearchParams): { query: DashboardQuery; notes: string[] } {
  const query: DashboardQuery = {};
  const notes: string[] = [];
  for (const key of Object.keys(Query) as (keyof typeof Query)[]) {
    const raw = params[key];
    const value = (Array.isArray(raw) ? raw.at(-1) : raw)?.trim();
    if (!value || (key === "status" && value === "all")) continue;
    const parsed = Query[key].safeParse(value);
    if (parsed.success) query[key] = parsed.data;
    else {
      const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
      const why = key === "status" ? `expected one of ${ThreadStatus.options.join(", ")}` : (parsed.error.issues[0]?.message ?? "not valid");
      notes.push(`Ignored ${key}="${shown}": ${why}.`);
    }
  }
  return { query, notes };
}

/** What the filters ask for, in words ("status Completed, flow X, search “notes”"). */
function describeFilters(query: DashboardQuery, flowName: string | undefined): string {
  return [query.status ? `status ${STATUS_LABEL[query.status] ?? query.status}` : null, query.flow ? `flow ${flowName ?? query.flow}` : null, query.q ? `search “${query.q}”` : null]
    .filter(Boolean)
    .join(", ");
}

/**
 * Dashboard: the user's flows (open the editor, start a run) and the
 * runs of every workspace they belong to, with status, flow and version, start, duration,
 * steps, tokens and estimated cost; filtered by status, flow and a search in the tasks
 * through URL search params (`?status=failed&flow=<id>&q=notes`). A user in several workspaces
 * sees each flow's and run's workspace, and picks the workspace of a new flow; invitations
 * waiting for the user are announced (docs/security.md "Membership").
 */
export default async function FlowsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await requireUser();
  const { query, notes } = parseQuery(await searchParams);
  const [flows, labels, targets, invitations] = await Promise.all([listFlows(db(), user.id), flowWorkspaceLabels(db(), user.id), newFlowTargets(db(), user.id), myInvitations(db(), user.id)]);
  if (query.flow && !flows.some((f) => f.id === query.flow)) {
    notes.push(`Ignored flow="${query.flow}": no flow of your workspaces has that id.`);
    query.flow = undefined;
  }
  const status = query.status as ThreadStatus | undefined;
  const filters = { status, flowId: query.flow, q: query.q };
  const [page, counts, totals] = await Promise.all([
    listThreads(db(), user.id, { ...filters, cursor: query.cursor }),
    dashboardCounts(db(), user.id, filters),
    dashboardTotals(db(), user.id, filters),
  ]);
  if (page.cursorIgnored) {
    notes.push("That page of runs is no longer there; showing the newest runs.");
    query.cursor = undefined;
  }
  const filtered = Boolean(query.status || query.flow || query.q);
  const noRunsAtAll = !filtered && counts.all === 0;
  const now = Date.now();
  const templates = (
    <NewFlowButton
      templates={Object.entries(NEW_FLOW_TEMPLATES).map(([key, doc]) => ({ key, label: doc.settings.name, description: doc.settings.description, about: starterAbout(key) }))}
      targets={targets}
    />
  );

  return (
    <main className="wide">
      <ThreadDeletedNotice />
      <InvitationsNotice workspaces={invitations.map((i) => i.workspace.name)} />
      <div className="row">
        <h1>Flows</h1>
        {flows.length > 0 ? templates : null}
      </div>
      {flows.length === 0 ? (
        <NoFlows>{templates}</NoFlows>
      ) : (
        <ul className="flow-list">
          {flows.map((f) => {
            const editable = can(f.role, "edit");
            return (
              <li key={f.id} className="card" data-testid={`flow-${f.id}`}>
                <div className="row">
                  <div>
                    <Link href={`/flows/${f.id}`} className="flow-name" data-testid="open-flow">
                      {f.name}
                    </Link>{" "}
                    <span className="muted small">v{f.version}</span>
                    {f.role === "owner" ? null : (
                      <>
                        {" "}
                        <span className="badge" title={ROLE_CAN[f.role]} data-testid="flow-role">
                          {ROLE_LABEL[f.role]}
                        </span>
                      </>
                    )}
                    {labels.several ? (
                      <>
                        {" "}
                        <span className="badge" title="Workspace" data-testid="flow-workspace">
                          {labels.byFlow.get(f.id)}
                        </span>
                      </>
                    ) : null}
                    <p className="muted small">{f.description}</p>
                  </div>
                  <span className="stack" style={{ gap: 2, alignItems: "flex-end" }}>
                    <Link href={`/flows/${f.id}`} className="button secondary" data-testid="open-editor" {...(editable ? {} : { "aria-describedby": `read-only-${f.id}` })}>
                      {editable ? "Open editor" : "View flow"}
                    </Link>
                    {editable ? null : (
                      <span id={`read-only-${f.id}`} className="muted small" data-testid="flow-read-only">
                        {can(f.role, "run") ? "Read-only: only owners edit flows." : "Read-only: only owners edit flows, and approvers or owners run them."}
                      </span>
                    )}
                  </span>
                </div>
                <StartRunForm
                  flowId={f.id}
                  defaultTask={suggestedTask(f.templateKey)}
                  disabledReason={can(f.role, "run") ? undefined : "Viewers watch runs; ask an owner for the approver role to start one."}
                />
              </li>
            );
          })}
        </ul>
      )}

      <section aria-labelledby="runs-heading" data-testid="dashboard-runs">
        <h2 id="runs-heading">Runs</h2>
        {notes.length ? <FilterNotes notes={notes} /> : null}
        {noRunsAtAll ? (
          <NoRuns hasFlows={flows.length > 0} />
        ) : (
          <>
            <DashboardFilters key={dashboardHref(query)} query={query} counts={counts} flows={flows.map((f) => ({ id: f.id, name: f.name }))} />
            <DashboardTotals totals={totals} />
            {page.rows.length === 0 ? (
              <NoMatch what={describeFilters(query, flows.find((f) => f.id === query.flow)?.name)} />
            ) : (
              <>
                <RefreshWhileRunning active={page.rows.some((r) => r.running)} />
                <ThreadTable rows={page.rows} now={now} workspaceOf={labels.several ? labels.byFlow : undefined} />
                <RunsPager newest={query.cursor ? dashboardHref({ ...query, cursor: undefined }) : null} older={page.nextCursor ? dashboardHref({ ...query, cursor: page.nextCursor }) : null} />
              </>
            )}
          </>
        )}
      </section>
    </main>
  );
}
