import { z } from "zod";
import { SecretInput } from "@/lib/workspace-secrets/input";

/** Route params. */
export const Params = z.object({ workspaceId: z.string().min(1).max(64) });

/** POST body: name (`^[A-Z][A-Z0-9_]{0,63}$`), value (1..8192 bytes, one line), hosts (1..20). */
export const Body = SecretInput;
