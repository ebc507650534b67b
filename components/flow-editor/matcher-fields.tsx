"use client";

import { X } from "lucide-react";
import { useState } from "react";
import type { ArgMatcher } from "@/lib/flow/schema";
import { FieldError } from "./inspector-form";
import styles from "./inspector.module.css";

/** Argument matchers of one policy rule in the inspector (docs/architecture.md#policies), all of which must hold. */

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
  /** The first schema error at a path relative to the rule (`match.0.pattern`), or below it. */
  error: (path: string) => string | undefined;
  onChange: (matchers: ArgMatcher[]) => void;
}

/** The matcher list of a rule: add, remove, and edit kind, field and value of each. */
export function MatcherList({ ruleIndex, matchers, error: ruleError, onChange }: MatcherListProps) {
  const prefix = `inspector-rule-${ruleIndex}-matcher`;
  const replace = (index: number, next: ArgMatcher) => onChange(matchers.map((m, i) => (i === index ? next : m)));
  return (
    <div className={styles.matcherList}>
      <div className={styles.matcherHead}>
        <span>{matchers.length === 0 ? "Any arguments" : "When all of"}</span>
        <button type="button" data-testid={`${prefix}-add`} disabled={matchers.length >= MAX_MATCHERS} onClick={() => onChange([...matchers, freshMatcher("path_glob", "path")])}>
          + Matcher
        </button>
      </div>
      {matchers.map((m, index) => {
        const testId = `${prefix}-${index}`;
        const path = (key: string) => `rules.${ruleIndex}.match.${index}.${key}`;
        const error = (key: string) => ruleError(`match.${index}.${key}`);
        const valueKey = m.kind === "url_host" ? "hosts" : m.kind === "number" ? "value" : "pattern";
        const fieldError = error("field");
        const valueError = error(valueKey);
        return (
          // Matchers have no id; their position is their identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <div key={index} className={styles.matcherRow} data-testid={testId}>
            <div className={styles.matcherFields}>
              <select aria-label={`Matcher ${index + 1} kind`} data-testid={`${testId}-kind`} value={m.kind} onChange={(e) => replace(index, freshMatcher(parseKind(e.target.value, m.kind), m.field))}>
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
                aria-invalid={fieldError ? true : undefined}
                aria-describedby={fieldError ? `${testId}-field-error` : undefined}
                onChange={(e) => replace(index, { ...m, field: e.target.value })}
              />
              <button type="button" aria-label={`Remove matcher ${index + 1}`} data-testid={`${testId}-remove`} onClick={() => onChange(matchers.filter((_, i) => i !== index))}>
                <X size={14} aria-hidden />
              </button>
            </div>
            <FieldError id={`${testId}-field-error`} path={path("field")} text={fieldError} />
            <ValueFields
              matcher={m}
              testId={testId}
              aria={{ "aria-invalid": valueError ? true : undefined, "aria-describedby": valueError ? `${testId}-value-error` : undefined }}
              onChange={(next) => replace(index, next)}
            />
            <FieldError id={`${testId}-value-error`} path={path(valueKey)} text={valueError} />
          </div>
        );
      })}
    </div>
  );
}

/** `aria-invalid` and `aria-describedby` of a matcher's value control. */
interface ValueAria {
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

function ValueFields({ matcher: m, testId, aria, onChange }: { matcher: ArgMatcher; testId: string; aria: ValueAria; onChange: (m: ArgMatcher) => void }) {
  switch (m.kind) {
    case "path_glob":
      return (
        <input
          aria-label="Path glob"
          {...aria}
          data-testid={`${testId}-value`}
          value={m.pattern}
          maxLength={200}
          placeholder="glob, e.g. docs/**"
          onChange={(e) => onChange({ ...m, pattern: e.target.value })}
        />
      );
    case "url_host":
      return (
        <ListInput label="Hosts, comma-separated" testId={`${testId}-value`} aria={aria} values={m.hosts} placeholder="example.com, *.example.com" onChange={(hosts) => onChange({ ...m, hosts })} />
      );
    case "number":
      return (
        <div className={styles.matcherOpValue}>
          <select aria-label="Comparison" data-testid={`${testId}-op`} value={m.op} onChange={(e) => onChange({ ...m, op: OPS.find((o) => o.op === e.target.value)?.op ?? m.op })}>
            {OPS.map((o) => (
              <option key={o.op} value={o.op}>
                {o.label}
              </option>
            ))}
          </select>
          <NumberInput testId={`${testId}-value`} aria={aria} value={m.value} onChange={(value) => onChange({ ...m, value })} />
        </div>
      );
    case "regex": {
      const { flags: _, ...noFlags } = m;
      return (
        <div className={styles.matcherRegex}>
          <input
            aria-label="Regular expression"
            {...aria}
            data-testid={`${testId}-value`}
            value={m.pattern}
            maxLength={200}
            placeholder="regular expression, e.g. ^drafts/"
            onChange={(e) => onChange({ ...m, pattern: e.target.value })}
          />
          <label className={styles.inlineCheck}>
            <input type="checkbox" data-testid={`${testId}-flags`} checked={m.flags === "i"} onChange={(e) => onChange(e.target.checked ? { ...m, flags: "i" } : noFlags)} />
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
function ListInput(props: { label: string; testId: string; aria: ValueAria; values: readonly string[]; placeholder: string; onChange: (values: string[]) => void }) {
  const [text, setText] = useState(props.values.join(", "));
  const shown = sameList(splitList(text), props.values) ? text : props.values.join(", ");
  return (
    <input
      aria-label={props.label}
      {...props.aria}
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
function NumberInput({ testId, aria, value, onChange }: { testId: string; aria: ValueAria; value: number; onChange: (value: number) => void }) {
  const [text, setText] = useState(String(value));
  const shown = Object.is(parseNumber(text), value) ? text : String(value);
  return (
    <input
      aria-label="Value"
      {...aria}
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
