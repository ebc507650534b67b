"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { memo, useId } from "react";
import { useFieldArray, useForm, useWatch } from "react-hook-form";
import type { RouteTarget } from "@/lib/flow/router-targets";
import { RouterData } from "@/lib/flow/schema";
import { FIELD_MESSAGES, Field, FieldError, fieldAria, firstErrorAt, type NodeFormProps, NodeFormFrame, ownErrorAt, useNodeFormSync } from "./inspector-form";
import styles from "./inspector.module.css";
import { KindIcon } from "./kind-icon";

const resolver = zodResolver(RouterData, FIELD_MESSAGES);
/** RouterData allows at most 50 routes. */
const MAX_ROUTES = 50;

export interface RouterFormProps extends NodeFormProps<"router"> {
  /** The agents connected from this router: the only valid route targets (lib/flow/router-targets.ts). */
  targets: readonly RouteTarget[];
}

/**
 * The inspector of a Router/condition (docs/architecture.md#flows-and-compilation): its name and ordered routes. A route
 * sends a new task whose text contains a word (or matches a regex) straight to one of the
 * agents the router is connected to; with no match the Planner plans as usual.
 */
export const RouterForm = memo(function RouterForm({ nodeId, data, onApply, onPending, targets }: RouterFormProps) {
  const id = useId();
  const form = useForm({ resolver, defaultValues: data, mode: "onChange" });
  const unapplied = useNodeFormSync(form, RouterData, { nodeId, data, onApply: (d) => onApply(nodeId, d), onPending });
  const { fields, append, remove } = useFieldArray({ control: form.control, name: "routes" });
  const routes = useWatch({ control: form.control, name: "routes" }) ?? [];
  const { register } = form;
  const errors = form.formState.errors;
  const ids = new Set(targets.map((t) => t.id));

  return (
    <NodeFormFrame
      nodeId={nodeId}
      unapplied={unapplied}
      title={
        <>
          <KindIcon kind="router" /> Router
        </>
      }
    >
      <Field id={`${id}-name`} label="Name" path="name" error={errors.name?.message}>
        <input {...register("name")} {...fieldAria(`${id}-name`, errors.name?.message)} data-testid="inspector-router-name" autoComplete="off" />
      </Field>
      <h3 className={styles.subTitle}>Routes</h3>
      <p className={styles.hint}>In order; the first route that matches the task sends it straight to its agent.</p>
      {fields.map((field, index) => {
        const n = index + 1;
        const at = `routes.${index}`;
        const valueError = firstErrorAt(errors, `${at}.value`);
        const targetError = firstErrorAt(errors, `${at}.target`);
        const target = routes[index]?.target ?? "";
        return (
          <fieldset key={field.id} aria-labelledby={`${id}-route-${index}`} className={styles.ruleRow} data-testid={`inspector-router-route-${index}`}>
            <div className={styles.ruleHead}>
              <span id={`${id}-route-${index}`}>Route {n}</span>
              <span className={styles.ruleButtons}>
                <button type="button" aria-label={`Remove route ${n}`} data-testid={`inspector-router-route-remove-${index}`} onClick={() => remove(index)}>
                  Remove
                </button>
              </span>
            </div>
            <div className={styles.ruleFields}>
              <label>
                When the task
                <select {...register(`routes.${index}.match`)} data-testid={`inspector-router-route-match-${index}`}>
                  <option value="contains">contains</option>
                  <option value="regex">matches regex</option>
                </select>
              </label>
              <label>
                {routes[index]?.match === "regex" ? "Regex" : "Text"}
                <input
                  {...register(`routes.${index}.value`)}
                  data-testid={`inspector-router-route-value-${index}`}
                  autoComplete="off"
                  spellCheck={false}
                  placeholder={routes[index]?.match === "regex" ? "^refund" : "invoice"}
                  aria-invalid={valueError ? true : undefined}
                  aria-describedby={valueError ? `${id}-route-${index}-value-error` : undefined}
                />
              </label>
              <FieldError id={`${id}-route-${index}-value-error`} className={styles.ruleWide} path={`${at}.value`} text={valueError} />
              <label className={styles.ruleWide}>
                Send it to
                <select
                  {...register(`routes.${index}.target`)}
                  data-testid={`inspector-router-route-target-${index}`}
                  aria-invalid={targetError ? true : undefined}
                  aria-describedby={targetError ? `${id}-route-${index}-target-error` : undefined}
                >
                  {!ids.has(target) && <option value={target}>{target ? `${target} (not connected)` : "choose an agent"}</option>}
                  {targets.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.name}
                    </option>
                  ))}
                </select>
              </label>
              <FieldError id={`${id}-route-${index}-target-error`} className={styles.ruleWide} path={`${at}.target`} text={targetError} />
            </div>
          </fieldset>
        );
      })}
      <FieldError path="routes" text={ownErrorAt(errors, "routes")} />
      {targets.length === 0 ? (
        <p className={styles.hint} data-testid="inspector-router-no-targets">
          Connect this router to an agent (drag from its right handle) to route tasks to it.
        </p>
      ) : (
        <div className={styles.addRow}>
          <button
            type="button"
            data-testid="inspector-router-route-add"
            disabled={fields.length >= MAX_ROUTES}
            onClick={() => append({ match: "contains", value: "", target: targets[0]?.id ?? "" }, { shouldFocus: true, focusName: `routes.${fields.length}.value` })}
          >
            Add route
          </button>
        </div>
      )}
      <p className={styles.fallback} data-testid="inspector-router-fallback">
        No match → the Planner plans the task as usual (connect the router to the Supervisor).
      </p>
    </NodeFormFrame>
  );
});
