"use client";

import { useId, useMemo, useState } from "react";
import { type PolicyNodeType, withData } from "@/lib/flow/react-flow";
import { Decision, PolicyRule, RiskLevel, RulePermission } from "@/lib/flow/schema";
import type { CatalogTool } from "./editor-context";
import styles from "./flow-editor.module.css";
import { FieldError, MatcherList } from "./matcher-fields";

/**
 * The inspector of a policy node (SPEC.md 4): its name and ordered rules, each with a tool
 * name or glob, decision, risk, permission level and argument matchers. Values are stored
 * as typed; the shared schema's errors show inline and the save refuses until they are fixed.
 */
export function PolicyFields({
  node,
  tools,
  onChange,
}: {
  node: PolicyNodeType;
  tools: readonly CatalogTool[];
  onChange: (node: PolicyNodeType) => void;
}) {
  const id = useId();
  const [newTool, setNewTool] = useState(tools[0]?.name ?? "*");
  const { rules } = node.data;
  const setRules = (next: PolicyRule[]) => onChange(withData(node, { rules: next }));
  const setRule = (index: number, next: PolicyRule) => setRules(rules.map((r, i) => (i === index ? next : r)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...rules];
    const [rule] = next.splice(index, 1);
    if (rule) next.splice(index + by, 0, rule);
    setRules(next);
  };
  const addRule = () => {
    const sideEffect = tools.find((t) => t.name === newTool)?.sideEffect ?? false;
    const decision = sideEffect ? "AUTH_REQUIRED" : "ALLOW";
    setRules([...rules, { tool: newTool, decision, risk: "medium", permission: "any", match: [] }]);
  };

  return (
    <section className={styles.fields}>
      <h2 className={styles.inspectorTitle}>
        Policy <small className={styles.muted}>{node.id}</small>
      </h2>
      <label htmlFor={`${id}-name`}>Name</label>
      <input
        id={`${id}-name`}
        data-testid="inspector-policy-name"
        value={node.data.name}
        onChange={(e) => onChange(withData(node, { name: e.target.value }))}
      />
      <h3 className={styles.subTitle}>Rules</h3>
      <p className={styles.hint}>
        In order; the first rule whose tool, permission and argument matchers all hold decides. Tool may be a glob
        such as <code>*_file</code>.
      </p>
      {rules.map((rule, index) => (
        <RuleRow
          // Rules have no id; their position is their identity (first match wins).
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          key={index}
          index={index}
          rule={rule}
          last={index === rules.length - 1}
          onChange={(next) => setRule(index, next)}
          onMove={(by) => move(index, by)}
          onRemove={() => setRules(rules.filter((_, i) => i !== index))}
        />
      ))}
      <div className={styles.addRule}>
        <label htmlFor={`${id}-new-tool`}>Add a rule for</label>
        <select
          id={`${id}-new-tool`}
          data-testid="inspector-rule-add-tool"
          value={newTool}
          onChange={(e) => setNewTool(e.target.value)}
        >
          <option value="*">* (any tool)</option>
          {tools.map((t) => (
            <option key={t.name} value={t.name}>
              {t.name}
            </option>
          ))}
        </select>
        <button type="button" data-testid="inspector-rule-add" onClick={addRule}>
          Add rule
        </button>
      </div>
    </section>
  );
}

interface RuleRowProps {
  index: number;
  rule: PolicyRule;
  last: boolean;
  onChange: (rule: PolicyRule) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

function RuleRow({ index, rule, last, onChange, onMove, onRemove }: RuleRowProps) {
  const errors = useMemo(() => ruleErrors(rule), [rule]);
  return (
    <div className={styles.ruleRow} data-testid={`inspector-rule-${index}`}>
      <div className={styles.ruleHead}>
        <span>
          {index + 1}. <code>{rule.tool}</code>
        </span>
        <span className={styles.ruleButtons}>
          <button type="button" aria-label={`Move rule ${index + 1} up`} disabled={index === 0} onClick={() => onMove(-1)}>
            ↑
          </button>
          <button type="button" aria-label={`Move rule ${index + 1} down`} disabled={last} onClick={() => onMove(1)}>
            ↓
          </button>
          <button type="button" data-testid={`inspector-rule-remove-${index}`} onClick={onRemove}>
            Remove
          </button>
        </span>
      </div>
      <div className={styles.ruleFields}>
        <label className={styles.ruleWide}>
          Tool or glob
          <input
            data-testid={`inspector-rule-tool-${index}`}
            value={rule.tool}
            maxLength={64}
            spellCheck={false}
            aria-invalid={errors.has("tool")}
            onChange={(e) => onChange({ ...rule, tool: e.target.value })}
          />
          <FieldError text={errors.get("tool")} />
        </label>
        <EnumSelect label="Decision" testId={`inspector-rule-decision-${index}`} options={Decision} value={rule.decision} onChange={(decision) => onChange({ ...rule, decision })} />
        <EnumSelect label="Risk" testId={`inspector-rule-risk-${index}`} options={RiskLevel} value={rule.risk} onChange={(risk) => onChange({ ...rule, risk })} />
        <EnumSelect
          label="Permission level"
          className={styles.ruleWide}
          testId={`inspector-rule-permission-${index}`}
          options={RulePermission}
          value={rule.permission}
          onChange={(permission) => onChange({ ...rule, permission })}
          format={(p) => (p === "any" ? "any level" : p)}
        />
      </div>
      <MatcherList
        ruleIndex={index}
        matchers={rule.match}
        errors={errors}
        onChange={(match) => onChange({ ...rule, match })}
      />
      <FieldError text={errors.get("match")} />
    </div>
  );
}

/** Schema errors of a rule by path relative to the rule (`tool`, `match.1.pattern`), first message each. */
function ruleErrors(rule: PolicyRule): Map<string, string> {
  const errors = new Map<string, string>();
  const result = PolicyRule.safeParse(rule);
  for (const issue of result.error?.issues ?? []) {
    const path = issue.path.join(".");
    if (!errors.has(path)) errors.set(path, issue.message);
  }
  return errors;
}


/** A labelled `<select>` over the values of a zod enum; `onChange` gets the typed value. */
function EnumSelect<T extends string>({
  label,
  testId,
  options,
  value,
  onChange,
  format = (v) => v,
  className,
}: {
  label: string;
  testId: string;
  options: { options: readonly T[]; parse(v: unknown): T };
  value: T;
  onChange: (value: T) => void;
  format?: (value: T) => string;
  className?: string;
}) {
  return (
    <label className={className}>
      {label}
      <select data-testid={testId} value={value} onChange={(e) => onChange(options.parse(e.target.value))}>
        {options.options.map((o) => (
          <option key={o} value={o}>
            {format(o)}
          </option>
        ))}
      </select>
    </label>
  );
}
