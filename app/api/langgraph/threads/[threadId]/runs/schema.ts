import { z } from "zod";
import { RunBody, StreamMode } from "@/lib/langgraph-api/run-body";

/** Route params: the thread (a Phylactery thread id, or the id a client gave `threads.create`). */
export const Params = z.object({ threadId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "thread ids are 1-64 of [A-Za-z0-9_-]") });

/** Route params of one run. */
export const RunParams = Params.extend({ runId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "run ids are 1-64 of [A-Za-z0-9_-]") });

/** POST body of create, stream and wait (the SDK's RunCreate; lib/langgraph-api/run-body.ts). */
export const Body = RunBody;

/** GET query of the run list (runs.list). */
export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1, "limit: 1 to 100").max(100, "limit: 1 to 100").default(10),
  offset: z.coerce.number().int().min(0, "offset: 0 or more").default(0),
  status: z.enum(["pending", "running", "error", "success", "timeout", "interrupted"]).optional(),
  select: z.string().max(200).optional(),
});

const flag = z.enum(["0", "1", "true", "false"]).transform((v) => v === "1" || v === "true");

/** GET query of join (runs.join). */
export const JoinQuery = z.object({ cancel_on_disconnect: flag.optional() });

/** GET query of join-stream (runs.joinStream): the stream modes, comma-separated or repeated (the last one wins). */
export const JoinStreamQuery = z.object({
  cancel_on_disconnect: flag.optional(),
  stream_mode: z
    .string()
    .max(200)
    .transform((s) => s.split(",").map((m) => m.trim()))
    .pipe(z.array(StreamMode).min(1))
    .optional(),
  namespace: z.string().max(200).optional(),
  checkpoint_id: z.string().max(100).optional(),
});

/** POST query of cancel (runs.cancel). */
export const CancelQuery = z.object({
  wait: flag.optional(),
  action: z
    .enum(["interrupt", "rollback"])
    .refine((a) => a === "interrupt", "action: only interrupt (rollback would erase the run's checkpoints)")
    .optional(),
  reason: z.string().max(500).optional(),
});
