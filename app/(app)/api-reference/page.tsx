import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import styles from "@/components/api-reference/api-reference.module.css";
import { ApiToc } from "@/components/api-reference/api-toc";
import { InlineCode } from "@/components/api-reference/inline-code";
import { OperationCard } from "@/components/api-reference/operation-card";
import { tagAnchor } from "@/components/api-reference/tag-anchor";
import { API_OPERATIONS } from "@/app/api/_openapi";
import { openApiDocument } from "@/lib/openapi/document";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "API reference" };

/** This server's origin as the browser reached it, for copyable examples. */
async function origin(): Promise<string> {
  const h = await headers();
  const host = h.get("x-forwarded-host") ?? h.get("host") ?? "localhost:3000";
  const proto = h.get("x-forwarded-proto") ?? (host.startsWith("localhost") || host.startsWith("127.") ? "http" : "https");
  return `${proto}://${host}`;
}

/**
 * The API reference: how to authenticate and where the LangGraph Platform API lives, then
 * every operation of the OpenAPI document (GET /api/openapi.json), grouped by tag, each with
 * its parameters, request body and answers, and a table of contents beside them.
 */
export default async function ApiReferencePage() {
  const doc = openApiDocument(API_OPERATIONS);
  const base = await origin();
  return (
    <main className="wide">
      <div className="row">
        <h1>API reference</h1>
        <span className="small muted" data-testid="api-version">
          {doc.info.title} {doc.info.version} · OpenAPI {doc.openapi}
        </span>
      </div>
      <div className={styles.layout}>
        <ApiToc doc={doc} />
        <div>
          <section id="getting-started" className={`card ${styles.intro}`} data-testid="api-intro">
            <h2>Getting started</h2>
            <p>
              Every JSON route below can be called by a program. Make an API key in <Link href="/settings">Settings</Link> and send it with each request as <code>Authorization: Bearer phy_…</code> (or{" "}
              <code>x-api-key: phy_…</code>). A key acts as you, with your roles, and a key limited to one workspace reaches only that workspace. In the browser, your session cookie works too.
            </p>
            <pre>{`curl -H "Authorization: Bearer phy_…" ${base}/api/workspaces`}</pre>
            <p>
              Errors are JSON: <code>{"{ error: { code, reason, message, issues? } }"}</code>, where <code>reason</code> is a stable code and, for invalid input (422), <code>issues</code> names each
              field. Under <code>/api/langgraph</code> they come in the LangGraph Platform's shape, <code>{"{ detail, error }"}</code>, which its clients show.
            </p>
            <p>
              The machine-readable description is{" "}
              <a href="/api/openapi.json" data-testid="api-openapi-link">
                /api/openapi.json
              </a>{" "}
              (OpenAPI 3.1, public): load it into an API client or a code generator.
            </p>
            <p>
              The LangGraph Platform API (assistants are flows; threads, runs and their stream modes) lives under <code>/api/langgraph</code>, so the official LangGraph SDK works unchanged with the
              same key:
            </p>
            <pre>{`import { Client } from "@langchain/langgraph-sdk";\nconst client = new Client({ apiUrl: "${base}/api/langgraph", apiKey: "phy_…" });`}</pre>
          </section>
          {doc.tags.map((tag) => (
            <section key={tag.name} id={tagAnchor(tag.name)} className={styles.tag} data-testid={`api-tag-${tagAnchor(tag.name)}`}>
              <h2>{tag.name}</h2>
              {tag.description ? (
                <p className="muted">
                  <InlineCode text={tag.description} />
                </p>
              ) : null}
              {Object.entries(doc.paths).flatMap(([path, item]) =>
                Object.entries(item)
                  .filter(([, op]) => op.tags.includes(tag.name))
                  .map(([method, op]) => <OperationCard key={op.operationId} method={method} path={path} op={op} />),
              )}
            </section>
          ))}
        </div>
      </div>
    </main>
  );
}
