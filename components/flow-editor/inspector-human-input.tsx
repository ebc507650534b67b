"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { memo, useId } from "react";
import { useForm } from "react-hook-form";
import { HumanInputData } from "@/lib/flow/schema";
import { FIELD_MESSAGES, Field, fieldAria, type NodeFormProps, NodeFormFrame, useNodeFormSync } from "./inspector-form";
import { KindIcon } from "./kind-icon";

const resolver = zodResolver(HumanInputData, FIELD_MESSAGES);

/** The inspector of a Human input step (docs/architecture.md#flows-and-compilation): its name and the question the run asks the user. */
export const HumanInputForm = memo(function HumanInputForm({ nodeId, data, onApply, onPending }: NodeFormProps<"human_input">) {
  const id = useId();
  const form = useForm({ resolver, defaultValues: data, mode: "onChange" });
  const unapplied = useNodeFormSync(form, HumanInputData, { nodeId, data, onApply: (d) => onApply(nodeId, d), onPending });
  const {
    register,
    formState: { errors },
  } = form;
  return (
    <NodeFormFrame
      nodeId={nodeId}
      unapplied={unapplied}
      title={
        <>
          <KindIcon kind="human_input" /> Human input
        </>
      }
    >
      <Field id={`${id}-name`} label="Name" path="name" error={errors.name?.message}>
        <input {...register("name")} {...fieldAria(`${id}-name`, errors.name?.message)} data-testid="inspector-human_input-name" autoComplete="off" />
      </Field>
      <Field id={`${id}-prompt`} label="Question for the user" path="prompt" error={errors.prompt?.message} hint="The run waits with this question; the reply is the step's result.">
        <textarea {...register("prompt")} {...fieldAria(`${id}-prompt`, errors.prompt?.message, true)} data-testid="inspector-human_input-prompt" rows={5} />
      </Field>
    </NodeFormFrame>
  );
});
