import { z } from "zod";
import { MemberInput } from "@/lib/db/members";

/** Route params. */
export const Params = z.object({ workspaceId: z.string().min(1).max(64) });

/** POST body: the email of an existing account and its role (owner | approver | viewer). */
export const Body = MemberInput;
