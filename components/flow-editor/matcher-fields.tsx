"use client";

import { useState } from "react";
import type { ArgMatcher } from "@/lib/flow/schema";
import styles from "./flow-editor.module.css";

/** Argument matchers of one policy rule in the inspector (SPEC.md 4), all of which must hold. */

type Kind = ArgMatcher["kind"];
type NumberOp = Extract<ArgMatcher, { kind: "number" }>["op"];

const KINDS: readonly { kind: Kind; label: string }[] = [
  { kind: "path_glob", label: "path glob" },
  { kind: "url_host", label: "URL host" },
  { kind: "number", label: "number" },
  { kind: "regex", label: "regex" },
];
const OPS: readonly { op: NumberOp; label: string }[] = [
  { op: "gt", label: ">" },
  { op: "gte", label: "≥" },
  { op: "lt", label: "<" },
  { op: "lte", label: "≤" },
  { op: "eq", label: "=" },
  { op: "neq", label: "≠" },
];
const MAX_MATCHERS = 20;

/** A new matcher of `kind` on `field`, with placeholder values the user then edits. */
function freshMatcher(kind: Kind, field: string): ArgMatcher {
  switch (kind) {
    case "path_glob":
      return { kind, field, pattern: "**" };
    case "url_host":
      return { kind, field, hosts: [] };
    case "number":
      return { kind, field, op: "gt", value: 0 };
    case "regex":
      return { kind, field, pattern: ".*" };
  }
}

export interface MatcherListProps {
  /** 0-based rule index, for test ids (`inspector-rule-N-matcher-M-…`). */
  ruleIndex: number;
  matchers: readonly ArgMatcher[];
  /** Schema errors of the rule by path relative to the rule (`match.0.pattern`). */
  errors: ReadonlyMap<string, string>;
  onChange: (matchers: ArgMatcher[]) => void;
}

/** The matcher list of a rule: add, remove, and edit kind, field and value of each. */
export function MatcherList({ ruleIndex, matchers, errors, onChange }: MatcherListProps) {
  const prefix = `inspector-rule-${ruleIndex}-matcher`;
  const replace = (index: number, next: ArgMatcher) => onChange(matchers.map((m, i) => (i === index ? next : m)));
  return (
    <div className={styles.matcherList}>
      <div className={styles.matcherHead}>
        <span>{matchers.length === 0 ? "Any arguments" : "When all of"}</span>
        <button
          type="button"
          data-testid={`${prefix}-add`}
          disabled={matchers.length >= MAX_MATCHERS}
          onClick={() => onChange([...matchers, freshMatcher("path_glob", "path")])}
        >
          + Matcher
        </button>
      </div>
      {matchers.map((m, index) => {
        const testId = `${prefix}-${index}`;
        const error = (key: string) => firstError(errors, `match.${index}.${key}`);
        return (
          // Matchers have no id; their position is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <div key={index} className={styles.matcherRow} data-testid={testId}>
            <div className={styles.matcherFields}>
              <select
                aria-label={`Matcher ${index + 1} kind`}
                data-testid={`${testId}-kind`}
                value={m.kind}
                onChange={(e) => replace(index, freshMatcher(parseKind(e.target.value, m.kind), m.field))}
              >
                {KINDS.map((k) => (
                  <option key={k.kind} value={k.kind}>
                    {k.label}
                  </option>
                ))}
              </select>
              <input
                aria-label={`Matcher ${index + 1} field`}
                data-testid={`${testId}-field`}
                value={m.field}
                maxLength={100}
                placeholder="field, e.g. path or request.url"
                onChange={(e) => replace(index, { ...m, field: e.target.value })}
              />
              <button
                type="button"
                aria-label={`Remove matcher ${index + 1}`}
                data-testid={`${testId}-remove`}
                onClick={() => onChange(matchers.filter((_, i) => i !== index))}
              >
                ×
              </button>
            </div>
            <FieldError text={error("field")} />
            <ValueFields matcher={m} testId={testId} onChange={(next) => replace(index, next)} />
            <FieldError text={error(m.kind === "url_host" ? "hosts" : m.kind === "number" ? "value" : "pattern")} />
          </div>
        );
      })}
    </div>
  );
}

function ValueFields({ matcher: m, testId, onChange }: { matcher: ArgMatcher; testId: string; onChange: (m: ArgMatcher) => void }) {
  switch (m.kind) {
    case "path_glob":
      return (
        <input
          aria-label="Path glob"
          data-testid={`${testId}-value`}
          value={m.pattern}
          maxLength={200}
          placeholder="glob, e.g. docs/**"
          onChange={(e) => onChange({ ...m, pattern: e.target.value })}
        />
      );
    case "url_host":
      return (
        <ListInput
          label="Hosts, comma-separated"
          testId={`${testId}-value`}
          values={m.hosts}
          placeholder="example.com, *.example.com"
          onChange={(hosts) => onChange({ ...m, hosts })}
        />
      );
    case "number":
      return (
        <div className={styles.matcherOpValue}>
          <select
            aria-label="Comparison"
            data-testid={`${testId}-op`}
            value={m.op}
            onChange={(e) => onChange({ ...m, op: OPS.find((o) => o.op === e.target.value)?.op ?? m.op })}
          >
            {OPS.map((o) => (
              <option key={o.op} value={o.op}>
                {o.label}
              </option>
            ))}
          </select>
          <NumberInput testId={`${testId}-value`} value={m.value} onChange={(value) => onChange({ ...m, value })} />
        </div>
      );
    case "regex": {
      const { flags: _, ...noFlags } = m;
      return (
        <div className={styles.matcherRegex}>
          <input
            aria-label="Regular expression"
            data-testid={`${testId}-value`}
            value={m.pattern}
            maxLength={200}
            placeholder="regular expression, e.g. ^drafts/"
            onChange={(e) => onChange({ ...m, pattern: e.target.value })}
          />
          <label className={styles.inlineCheck}>
            <input
              type="checkbox"
              data-testid={`${testId}-flags`}
              checked={m.flags === "i"}
              onChange={(e) => onChange(e.target.checked ? { ...m, flags: "i" } : noFlags)}
            />
            ignore case
          </label>
        </div>
      );
    }
  }
}

/**
 * A comma-separated list. Keeps the typed text (so "a.com, " can be continued) while it
 * still means the same list as `values`; shows `values` again after an outside change.
 */
function ListInput(props: { label: string; testId: string; values: readonly string[]; placeholder: string; onChange: (values: string[]) => void }) {
  const [text, setText] = useState(props.values.join(", "));
  const shown = sameList(splitList(text), props.values) ? text : props.values.join(", ");
  return (
    <input
      aria-label={props.label}
      data-testid={props.testId}
      value={shown}
      placeholder={props.placeholder}
      onChange={(e) => {
        setText(e.target.value);
        props.onChange(splitList(e.target.value));
      }}
    />
  );
}

/** A number; text that is no number is kept as typed and stored as NaN, which the schema refuses. */
function NumberInput({ testId, value, onChange }: { testId: string; value: number; onChange: (value: number) => void }) {
  const [text, setText] = useState(String(value));
  const shown = Object.is(parseNumber(text), value) ? text : String(value);
  return (
    <input
      aria-label="Value"
      data-testid={testId}
      inputMode="decimal"
      value={shown}
      onChange={(e) => {
        setText(e.target.value);
        onChange(parseNumber(e.target.value));
      }}
    />
  );
}

/** Inline schema error under a field (nothing when there is none). */
export function FieldError({ text }: { text: string | undefined }) {
  return text ? (
    <span className={styles.fieldError} role="alert">
      {text}
    </span>
  ) : null;
}

/** The first error at `path` or below it (`match.0.hosts` also reports `match.0.hosts.2`). */
export function firstError(errors: ReadonlyMap<string, string>, path: string): string | undefined {
  for (const [key, message] of errors) {
    if (key === path || key.startsWith(`${path}.`)) return message;
  }
  return undefined;
}

function parseKind(value: string, fallback: Kind): Kind {
  return KINDS.find((k) => k.kind === value)?.kind ?? fallback;
}

function splitList(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function parseNumber(text: string): number {
  return text.trim() === "" ? Number.NaN : Number(text);
}
