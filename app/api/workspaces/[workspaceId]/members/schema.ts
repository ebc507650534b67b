import { z } from "zod";
import { InvitationInput } from "@/lib/db/invitations";

/** Route params. */
export const Params = z.object({ workspaceId: z.string().min(1).max(64) });

/** POST body: the invitee's email (an account need not exist) and the role accepting gives (owner | approver | viewer). */
export const Body = InvitationInput;
