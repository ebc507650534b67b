import { z } from "zod";

/** Route params. */
export const Params = z.object({ threadId: z.string().min(1).max(64) });

/**
 * POST body (sent by the run view's chat transport): a user message, or a decision on the
 * pending approval card. Approval tokens are base64url HMACs (43 chars).
 */
export const Body = z.object({
  input: z.discriminatedUnion("kind", [
    /** Continue a run the server stopped in the middle of, from its last checkpoint. */
    z.object({ kind: z.literal("continue") }),
    z.object({
      kind: z.literal("message"),
      text: z.string().trim().min(1, "Write a message.").max(4000),
      /** Directed mode: run the message on this agent only. */
      agentId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
    }),
    z.object({
      kind: z.literal("decision"),
      approvalId: z.string().regex(/^[A-Za-z0-9_-]{6,64}$/, "approval ids are 6-64 of [A-Za-z0-9_-]"),
      decision: z.enum(["approve", "reject"]),
      token: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "tokens are base64url").optional(),
      comment: z.string().trim().max(1000).optional(),
    }),
  ]),
});
