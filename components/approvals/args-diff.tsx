import diff from "microdiff";

/** Canonical argument text (RFC 8785 JSON) as a value; the text itself when it does not parse. */
export function argsValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Canonical argument text pretty-printed for people; as is when it does not parse. */
export function prettyArgs(text: string): string {
  const value = argsValue(text);
  return value === text ? text : JSON.stringify(value, null, 2);
}

/** One field-level change between two argument objects. */
export interface ArgChange {
  kind: "added" | "removed" | "changed";
  /** Dotted path with array indexes, e.g. `path`, `options.tags[1]`. */
  path: string;
  before?: unknown;
  after?: unknown;
}

/** `["a", 0, "b"]` -> `a[0].b`. */
function pathText(path: (string | number)[]): string {
  return path.reduce<string>((out, p) => (typeof p === "number" ? `${out}[${p}]` : out ? `${out}.${p}` : p), "");
}

/**
 * Field-level differences between the arguments an agent proposed and an approver's edit,
 * via microdiff: added, removed and changed fields with their paths. Non-object
 * values compare as one root field.
 */
export function diffArgs(before: unknown, after: unknown): ArgChange[] {
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;
  if (!isObj(before) || !isObj(after)) {
    return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ kind: "changed", path: "(arguments)", before, after }];
  }
  return diff(before, after).map((d) => {
    const path = pathText(d.path) || "(arguments)";
    if (d.type === "CREATE") return { kind: "added", path, after: d.value };
    if (d.type === "REMOVE") return { kind: "removed", path, before: d.oldValue };
    return { kind: "changed", path, before: d.oldValue, after: d.value };
  });
}

/** A value as short JSON for one diff line (long strings cut at `max` chars). */
function short(value: unknown, max = 160): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/**
 * The argument diff, one line per changed field: `+ path: new`, `- path: old`,
 * `~ path: old → new`. Says so when nothing changed.
 */
export function ArgsDiff({ before, after, testId = "edit-diff" }: { before: unknown; after: unknown; testId?: string }) {
  const changes = diffArgs(before, after);
  if (changes.length === 0) {
    return (
      <p className="small muted" data-testid={testId} data-changes={0}>
        No change from the proposed arguments yet.
      </p>
    );
  }
  return (
    <ul className="arg-diff small" data-testid={testId} data-changes={changes.length} aria-label="Changes to the arguments">
      {changes.map((c) => (
        <li key={`${c.kind}:${c.path}`} className={`diff-${c.kind}`} data-kind={c.kind} data-path={c.path}>
          {c.kind === "added" ? (
            <>
              <span aria-hidden="true">+ </span>
              <code>{c.path}</code> added: <code title={JSON.stringify(c.after)}>{short(c.after)}</code>
            </>
          ) : c.kind === "removed" ? (
            <>
              <span aria-hidden="true">− </span>
              <code>{c.path}</code> removed (was <code title={JSON.stringify(c.before)}>{short(c.before)}</code>)
            </>
          ) : (
            <>
              <span aria-hidden="true">~ </span>
              <code>{c.path}</code>: <del title={JSON.stringify(c.before)}>{short(c.before)}</del> → <ins title={JSON.stringify(c.after)}>{short(c.after)}</ins>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
