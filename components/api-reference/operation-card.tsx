import type { OpenApiOperation } from "@/lib/openapi/document";
import type { JsonSchema } from "@/lib/openapi/operation";
import { schemaRules, schemaType } from "@/lib/openapi/schema-summary";
import styles from "./api-reference.module.css";
import { InlineCode } from "./inline-code";
import { SchemaView } from "./schema-view";

/** Who may call an operation, in words, from its security requirements. */
function authLabel(security: OpenApiOperation["security"]): string {
  const schemes = security.flatMap((s) => Object.keys(s));
  if (schemes.length === 0) return "Public: no session or key needed.";
  if (schemes.includes("bearerAuth")) return "An API key (Authorization: Bearer, or x-api-key) or a browser session.";
  return "A browser session only (signed in); API keys are refused.";
}

/** Whether a response body is worth drawing: the shared error body and "any JSON" are not. */
function drawn(schema: JsonSchema | undefined): schema is JsonSchema {
  return schema !== undefined && typeof schema.$ref !== "string" && Object.keys(schema).length > 0 && !(schema.type === "string" && Object.keys(schema).length === 1);
}

/**
 * One operation of the API reference: method and path, summary and description, who may
 * call it, its parameters, its request body and its answers. The article's id is the
 * operationId, for links from the table of contents.
 */
export function OperationCard({ method, path, op }: { method: string; path: string; op: OpenApiOperation }) {
  const body = op.requestBody?.content["application/json"]?.schema;
  return (
    <article id={op.operationId} className={`card ${styles.operation}`} data-testid={`operation-${op.operationId}`}>
      <header className={styles.opHead}>
        <span className={`${styles.method} ${styles[`m${method.toUpperCase()}`] ?? ""}`} data-testid="operation-method">
          {method.toUpperCase()}
        </span>
        <code className={styles.path} data-testid="operation-path">
          {path}
        </code>
      </header>
      <h3 className={styles.summary}>{op.summary}</h3>
      {op.description ? (
        <p>
          <InlineCode text={op.description} />
        </p>
      ) : null}
      <p className="small">
        <strong>Auth:</strong> <span className="muted">{authLabel(op.security)}</span>
      </p>
      {op.parameters?.length ? (
        <>
          <h4>Parameters</h4>
          <table className={styles.params}>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">In</th>
                <th scope="col">Required</th>
                <th scope="col">Type</th>
                <th scope="col">Description</th>
              </tr>
            </thead>
            <tbody>
              {op.parameters.map((p) => (
                <tr key={`${p.in}-${p.name}`}>
                  <td>
                    <code>{p.name}</code>
                  </td>
                  <td>{p.in}</td>
                  <td>{p.required ? "yes" : "no"}</td>
                  <td>
                    <code>{schemaType(p.schema)}</code>
                    {schemaRules(p.schema).length ? <div className="small muted">{schemaRules(p.schema).join(" · ")}</div> : null}
                  </td>
                  <td className="small">{p.description ? <InlineCode text={p.description} /> : null}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
      {body ? (
        <>
          <h4>
            Request body <span className="small muted">application/json</span>
          </h4>
          <SchemaView schema={body} testId="operation-body" />
        </>
      ) : null}
      <h4>Responses</h4>
      <dl className={styles.responses}>
        {Object.entries(op.responses).map(([status, res]) => {
          const [type, media] = Object.entries(res.content ?? {})[0] ?? [];
          return (
            <div key={status} className={styles.response}>
              <dt>
                <span className={`${styles.status} ${Number(status) >= 400 ? styles.statusError : styles.statusOk}`}>{status}</span>
              </dt>
              <dd>
                <InlineCode text={res.description} />
                {type ? <span className="small muted"> ({type === "application/json" && Number(status) >= 400 ? "error body" : type})</span> : null}
                {drawn(media?.schema) ? <SchemaView schema={media.schema} /> : null}
              </dd>
            </div>
          );
        })}
      </dl>
    </article>
  );
}
