"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { memo, useId } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { AGENT_ICONS, AgentIcon } from "@/components/ui/agent-icon";
import { AGENT_ICON_LABEL, AGENT_ICON_NAMES, agentIconName } from "@/lib/flow/agent-icons";
import { AgentData } from "@/lib/flow/schema";
import { FIELD_MESSAGES, Field, fieldAria, type NodeFormProps, NodeFormFrame, useNodeFormSync } from "./inspector-form";
import styles from "./inspector.module.css";
import { ModelFields } from "./model-fields";

const ROLES = AgentData.shape.role.unwrap().options;
const resolver = zodResolver(AgentData, FIELD_MESSAGES);

const ROLE_HINT: Record<(typeof ROLES)[number], string> = {
  context_builder: "Gathers what the task needs before planning.",
  planner: "Turns the task into steps.",
  plan_critic: "Checks the plan before it runs.",
  step_executor: "Carries out steps with its tools.",
  reviewer: "Checks the work of the other agents.",
};

/**
 * The inspector of an Agent (docs/architecture.md#flows-and-compilation): name, role, instructions, model (with temperature
 * and max output, docs/models.md), max tries, icon
 * (one of a small set of lucide icons, lib/flow/agent-icons.ts; an old emoji shows as its
 * nearest icon until another is picked) and colour.
 */
export const AgentForm = memo(function AgentForm({ nodeId, data, onApply, onPending }: NodeFormProps<"agent">) {
  const id = useId();
  const form = useForm({ resolver, defaultValues: data, mode: "onChange" });
  const unapplied = useNodeFormSync(form, AgentData, { nodeId, data, onApply: (d) => onApply(nodeId, d), onPending });
  const {
    register,
    formState: { errors },
  } = form;
  const role = useWatch({ control: form.control, name: "role" }) ?? "step_executor";

  return (
    <NodeFormFrame
      nodeId={nodeId}
      unapplied={unapplied}
      title={
        <>
          <AgentIcon icon={data.icon} /> {data.role === "reviewer" ? "Reviewer" : "Agent"}
        </>
      }
    >
      <Field id={`${id}-name`} label="Name" path="name" error={errors.name?.message}>
        <input {...register("name")} {...fieldAria(`${id}-name`, errors.name?.message)} data-testid="inspector-agent-name" autoComplete="off" />
      </Field>
      <Field id={`${id}-role`} label="Role" path="role" error={errors.role?.message} hint={ROLE_HINT[role]}>
        <select {...register("role")} {...fieldAria(`${id}-role`, errors.role?.message, true)} data-testid="inspector-agent-role">
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r.replaceAll("_", " ")}
            </option>
          ))}
        </select>
      </Field>
      <Field id={`${id}-instructions`} label="Instructions" path="instructions" error={errors.instructions?.message}>
        <textarea {...register("instructions")} {...fieldAria(`${id}-instructions`, errors.instructions?.message)} data-testid="inspector-agent-instructions" rows={8} />
      </Field>
      <ModelFields id={id} testId="inspector-agent" register={register as never} errors={errors} />
      <Field id={`${id}-tries`} label="Max tries" path="maxTries" error={errors.maxTries?.message} hint="1 to 10; then the Supervisor re-plans or asks you.">
        <input
          {...register("maxTries", { valueAsNumber: true })}
          {...fieldAria(`${id}-tries`, errors.maxTries?.message, true)}
          data-testid="inspector-agent-max-tries"
          type="number"
          inputMode="numeric"
          min={1}
          max={10}
          step={1}
        />
      </Field>
      <Controller
        control={form.control}
        name="icon"
        render={({ field }) => (
          <fieldset className={styles.iconPicker} data-testid="inspector-agent-icon">
            <legend>Icon</legend>
            <div className={styles.iconGrid}>
              {AGENT_ICON_NAMES.map((name) => {
                const Icon = AGENT_ICONS[name];
                return (
                  <label key={name} className={styles.iconOption} title={AGENT_ICON_LABEL[name]}>
                    <input
                      type="radio"
                      name={`${id}-icon`}
                      value={name}
                      checked={agentIconName(field.value ?? "") === name}
                      onChange={() => field.onChange(name)}
                      onBlur={field.onBlur}
                      aria-label={AGENT_ICON_LABEL[name]}
                      data-testid={`inspector-agent-icon-${name}`}
                    />
                    <Icon size={16} aria-hidden />
                  </label>
                );
              })}
            </div>
          </fieldset>
        )}
      />
      <Field id={`${id}-color`} label="Colour" path="color" error={errors.color?.message}>
        <input {...register("color")} {...fieldAria(`${id}-color`, errors.color?.message)} data-testid="inspector-agent-color" type="color" />
      </Field>
    </NodeFormFrame>
  );
});
