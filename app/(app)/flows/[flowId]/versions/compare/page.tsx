import Link from "next/link";
import { DiffCanvas } from "@/components/versions/diff-canvas";
import { DiffList } from "@/components/versions/diff-list";
import { formatUtc } from "@/components/versions/format";
import styles from "@/components/versions/versions.module.css";
import { db } from "@/lib/db/client";
import { getVersion, listVersions } from "@/lib/db/flow-versions";
import { flowAccess } from "@/lib/auth/membership";
import { diffFlows, diffGraph } from "@/lib/flow/diff";
import { orNotFound } from "@/lib/http/or-not-found";
import { requireUser } from "@/lib/http/with-user";
import { Query, queryOf } from "./schema";

export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

/**
 * Compare two versions of a flow: `?from=1&to=2` (default: the previous version
 * and the latest). A read-only canvas of the "to" version with removed nodes as ghosts,
 * colored by change, and the list of field-level changes. A bad or missing version is
 * explained on the page, naming the field; another workspace's flow is a 404.
 */
export default async function ComparePage({ params, searchParams }: { params: Promise<{ flowId: string }>; searchParams: Promise<Search> }) {
  const user = await requireUser();
  const { flowId } = await params;
  const { flow } = await orNotFound(flowAccess(db(), user.id, flowId));
  const versions = await listVersions(db(), user.id, flow.id);
  const history = `/flows/${flow.id}/versions`;
  const header = (
    <p className="small muted">
      <Link href="/flows">Flows</Link> / <Link href={`/flows/${flow.id}`}>{flow.name}</Link> / <Link href={history}>history</Link> / compare
    </p>
  );

  const query = Query.safeParse(queryOf(await searchParams));
  const latest = versions[0]?.version ?? 1;
  const from = query.success ? (query.data.from ?? Math.max(1, latest - 1)) : 0;
  const to = query.success ? (query.data.to ?? latest) : 0;
  const wanted = { from, to };
  const missing = (["from", "to"] as const).find((key) => !versions.some((v) => v.version === wanted[key]));
  const problem = query.success ? (missing ? `${missing}: this flow has no version ${wanted[missing]}.` : null) : query.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
  // Versions are never deleted: both exist once listed.
  const pair = problem ? null : await Promise.all([getVersion(db(), user.id, flow.id, from), getVersion(db(), user.id, flow.id, to)]);

  const picker = (
    <form method="get" action={`${history}/compare`} className={styles.compareBar} data-testid="compare-picker">
      {(["from", "to"] as const).map((key) => (
        <label key={key}>
          {key === "from" ? "From" : "To"}
          <select name={key} defaultValue={String(key === "from" ? from : to)} data-testid={`compare-select-${key}`}>
            {versions.map((v) => (
              <option key={v.version} value={v.version}>{`v${v.version}${v.message ? ` — ${v.message}` : ""}`}</option>
            ))}
          </select>
        </label>
      ))}
      <button type="submit" className="secondary">
        Compare
      </button>
      {pair ? <Link href={`${history}/compare?from=${to}&to=${from}`}>Swap</Link> : null}
    </form>
  );

  if (!pair) {
    return (
      <main className="wide">
        {header}
        <h1>Compare versions</h1>
        <p className="card error" role="alert" data-testid="compare-error">
          {problem}
        </p>
        {picker}
      </main>
    );
  }

  const [a, b] = pair;
  const diff = diffFlows(a.document, b.document);
  return (
    <main className="wide">
      {header}
      <h1 data-testid="compare-title">
        v{a.version} → v{b.version}
      </h1>
      <p className="muted small">
        <span data-testid="compare-from">
          v{a.version} “{a.message}” by {a.authorEmail || "a deleted account"}, {formatUtc(a.createdAt)}
        </span>
        {" → "}
        <span data-testid="compare-to">
          v{b.version} “{b.message}” by {b.authorEmail || "a deleted account"}, {formatUtc(b.createdAt)}
        </span>
      </p>
      {picker}
      <div className={styles.compare}>
        <DiffCanvas graph={diffGraph(b.document, diff)} />
        <DiffList diff={diff} />
      </div>
    </main>
  );
}
