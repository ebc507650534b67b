"use client";

import { ArrowDown, ArrowUp } from "lucide-react";
import { Controller, type UseFormReturn, useWatch } from "react-hook-form";
import type { z } from "zod";
import type { nodeDataSchema } from "@/lib/flow/node-data";
import { Decision, RiskLevel, RulePermission } from "@/lib/flow/schema";
import { FieldError, firstErrorAt, ownErrorAt } from "./inspector-form";
import styles from "./inspector.module.css";
import { MatcherList } from "./matcher-fields";

type PolicySchema = ReturnType<typeof nodeDataSchema<"policy">>;
/** The policy form's values (react-hook-form) and what they parse to. */
export type PolicyForm = UseFormReturn<z.input<PolicySchema>, unknown, z.output<PolicySchema>>;

export interface RuleRowProps {
  form: PolicyForm;
  /** 0-based position of the rule (test ids `inspector-rule-{index}-…` and `inspector-rule-…-{index}`). */
  index: number;
  count: number;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

/**
 * One ordered rule of a policy in the inspector (docs/architecture.md#policies): tool name or glob, decision,
 * risk, permission level and argument matchers, each with its inline schema error.
 */
export function RuleRow({ form, index, count, onMove, onRemove }: RuleRowProps) {
  const { register, control } = form;
  const errors = form.formState.errors;
  const tool = useWatch({ control, name: `rules.${index}.tool` });
  const at = `rules.${index}`;
  const error = (path: string) => firstErrorAt(errors, `${at}.${path}`);
  const toolError = error("tool");
  const n = index + 1;
  return (
    <fieldset aria-labelledby={`inspector-rule-${index}-title`} className={styles.ruleRow} data-testid={`inspector-rule-${index}`}>
      <div className={styles.ruleHead}>
        <span id={`inspector-rule-${index}-title`}>
          Rule {n}: <code>{tool || "…"}</code>
        </span>
        <span className={styles.ruleButtons}>
          <button type="button" aria-label={`Move rule ${n} up`} data-testid={`inspector-rule-up-${index}`} disabled={index === 0} onClick={() => onMove(-1)}>
            <ArrowUp size={14} aria-hidden />
          </button>
          <button type="button" aria-label={`Move rule ${n} down`} data-testid={`inspector-rule-down-${index}`} disabled={index === count - 1} onClick={() => onMove(1)}>
            <ArrowDown size={14} aria-hidden />
          </button>
          <button type="button" aria-label={`Remove rule ${n}`} data-testid={`inspector-rule-remove-${index}`} onClick={onRemove}>
            Remove
          </button>
        </span>
      </div>
      <div className={styles.ruleFields}>
        <label className={styles.ruleWide}>
          Tool or glob
          <input
            {...register(`rules.${index}.tool`)}
            data-testid={`inspector-rule-tool-${index}`}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={toolError ? true : undefined}
            aria-describedby={toolError ? `inspector-rule-${index}-tool-error` : undefined}
          />
          <FieldError id={`inspector-rule-${index}-tool-error`} path={`${at}.tool`} text={toolError} />
        </label>
        {/* Full width: "AUTH_REQUIRED" does not fit half of the inspector (it read "AUTH_REQUI"). */}
        <label className={styles.ruleWide}>
          Decision
          <select {...register(`rules.${index}.decision`)} data-testid={`inspector-rule-decision-${index}`}>
            {Decision.options.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </label>
        <label>
          Risk
          <select {...register(`rules.${index}.risk`)} data-testid={`inspector-rule-risk-${index}`}>
            {RiskLevel.options.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </label>
        <label>
          Permission level
          <select {...register(`rules.${index}.permission`)} data-testid={`inspector-rule-permission-${index}`}>
            {RulePermission.options.map((p) => (
              <option key={p} value={p}>
                {p === "any" ? "any level" : p}
              </option>
            ))}
          </select>
        </label>
      </div>
      <Controller control={control} name={`rules.${index}.match`} render={({ field }) => <MatcherList ruleIndex={index} matchers={field.value ?? []} error={error} onChange={field.onChange} />} />
      <FieldError path={`${at}.match`} text={ownErrorAt(errors, `${at}.match`)} />
    </fieldset>
  );
}
