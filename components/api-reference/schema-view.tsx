import type { JsonSchema } from "@/lib/openapi/operation";
import { nestedSchema, schemaBranches, schemaProperties, schemaRules, schemaType } from "@/lib/openapi/schema-summary";
import styles from "./api-reference.module.css";
import { InlineCode } from "./inline-code";

/** How deep the tree goes before it stops (schemas here are a few levels deep; a recursive one would not end). */
const MAX_DEPTH = 6;

function Fields({ schema, depth }: { schema: JsonSchema; depth: number }) {
  if (depth > MAX_DEPTH) return <p className="small muted">…</p>;
  const branches = schemaBranches(schema);
  if (branches.length) {
    return (
      <ol className={styles.branches}>
        {branches.map((b, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: branches are a fixed list of one schema
          <li key={i}>
            <span className="small muted">{i === 0 ? "One of:" : "or:"}</span>
            {nestedSchema(b) ? <Fields schema={b} depth={depth + 1} /> : <code>{schemaType(b)}</code>}
          </li>
        ))}
      </ol>
    );
  }
  return (
    <ul className={styles.fields}>
      {schemaProperties(schema).map(({ name, schema: prop, required }) => {
        const below = nestedSchema(prop);
        const rules = schemaRules(prop);
        return (
          <li key={name}>
            <code className={styles.fieldName}>{name}</code>
            {required ? <span className={styles.required}>required</span> : null} <span className={styles.type}>{schemaType(prop)}</span>
            {rules.length ? <span className="small muted"> · {rules.join(" · ")}</span> : null}
            {typeof prop.description === "string" ? (
              <div className="small muted">
                <InlineCode text={prop.description} />
              </div>
            ) : null}
            {below ? <Fields schema={below} depth={depth + 1} /> : null}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * A JSON Schema as a compact tree: each field with its name, whether it is required, its
 * type in words and its rules, with the fields of nested objects, arrays of objects and
 * each shape of a union below it.
 */
export function SchemaView({ schema, testId }: { schema: JsonSchema; testId?: string }) {
  const below = nestedSchema(schema);
  const rules = schemaRules(schema);
  return (
    <div className={styles.schema} data-testid={testId}>
      {below === schema ? null : (
        <p className={styles.schemaHead}>
          <span className={styles.type}>{schemaType(schema)}</span>
          {rules.length ? <span className="small muted"> · {rules.join(" · ")}</span> : null}
        </p>
      )}
      {below ? <Fields schema={below} depth={0} /> : null}
    </div>
  );
}
