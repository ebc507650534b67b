import { z } from "zod";

/** Route params of /api/invitations/:invitationId/accept and /decline. */
export const Params = z.object({ invitationId: z.string().min(1).max(64) });
