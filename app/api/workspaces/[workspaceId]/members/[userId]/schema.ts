import { z } from "zod";
import { Role } from "@/lib/auth/roles";

/** Route params. */
export const Params = z.object({ workspaceId: z.string().min(1).max(64), userId: z.string().min(1).max(64) });

/** PATCH body: the member's new role. */
export const Body = z.object({ role: Role });
