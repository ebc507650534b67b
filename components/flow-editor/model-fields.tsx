"use client";

import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { Field, fieldAria } from "./inspector-form";

/** The model fields a form holds (lib/flow/schema.ts NodeModelFields). */
type ModelValues = { model?: string; temperature?: number; maxOutputTokens?: number };

/** An empty number input is "not set" (the provider's default), not NaN. */
const optionalNumber = (v: unknown) => (v === "" || v === null || v === undefined ? undefined : Number(v));

/**
 * Model, temperature and maximum output of a node (docs/models.md "Per-node settings"): the
 * planner (Supervisor), an Agent, or the finalizer (End). `testId` prefixes the fields'
 * `data-testid`s: `{testId}-model`, `{testId}-temperature`, `{testId}-max-output`.
 */
export function ModelFields({ id, testId, register, errors }: { id: string; testId: string; register: UseFormRegister<ModelValues>; errors: FieldErrors<ModelValues> }) {
  return (
    <>
      <Field id={`${id}-model`} label="Model" path="model" error={errors.model?.message} hint="provider:model, e.g. openai:gpt-4.1-mini or ollama:llama3.1. Empty: the flow's default model.">
        <input {...register("model")} {...fieldAria(`${id}-model`, errors.model?.message, true)} data-testid={`${testId}-model`} placeholder="flow default" autoComplete="off" spellCheck={false} />
      </Field>
      <Field id={`${id}-temperature`} label="Temperature" path="temperature" error={errors.temperature?.message} hint="0 to 2. Empty: the provider's default.">
        <input
          {...register("temperature", { setValueAs: optionalNumber })}
          {...fieldAria(`${id}-temperature`, errors.temperature?.message, true)}
          data-testid={`${testId}-temperature`}
          type="number"
          inputMode="decimal"
          min={0}
          max={2}
          step={0.1}
          placeholder="default"
        />
      </Field>
      <Field id={`${id}-max-output`} label="Max output tokens" path="maxOutputTokens" error={errors.maxOutputTokens?.message} hint="1 to 64000. Empty: the provider's default.">
        <input
          {...register("maxOutputTokens", { setValueAs: optionalNumber })}
          {...fieldAria(`${id}-max-output`, errors.maxOutputTokens?.message, true)}
          data-testid={`${testId}-max-output`}
          type="number"
          inputMode="numeric"
          min={1}
          max={64000}
          step={1}
          placeholder="default"
        />
      </Field>
    </>
  );
}
