import { z } from "zod";

const blankToUndefined = (v: unknown) => (v === "" ? undefined : v);

/** Route params. */
export const Params = z.object({ workspaceId: z.string().min(1).max(64) });

/**
 * GET query: `q` (free text; searches content and tags, plus meaning with an embedding
 * model), `status` (proposed | accepted) and `tag` (only facts with this tag). Empty values
 * count as absent; bad ones are a 422 naming the field.
 */
export const Query = z.object({
  q: z.preprocess(blankToUndefined, z.string().max(500, "at most 500 characters").optional()),
  status: z.preprocess(blankToUndefined, z.enum(["proposed", "accepted"]).optional()),
  tag: z.preprocess(blankToUndefined, z.string().max(40, "at most 40 characters").optional()),
});

/** POST body: a fact stated by a user (origin manual): content 1-2,000 chars, up to 10 tags, an optional agent role. */
export const Body = z.object({
  content: z.string().trim().min(1, "a fact needs some text").max(2_000, "at most 2,000 characters"),
  tags: z.array(z.string().trim().min(1, "tags cannot be empty").max(40, "at most 40 characters")).max(10, "at most 10 tags").optional(),
  agentRole: z.string().trim().max(64, "at most 64 characters").optional(),
});
