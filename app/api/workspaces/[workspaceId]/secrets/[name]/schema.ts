import { z } from "zod";
import { SecretName, SecretReplace } from "@/lib/workspace-secrets/input";

/** Route params: the workspace and the secret's name. */
export const Params = z.object({ workspaceId: z.string().min(1).max(64), name: SecretName });

/** PUT body: a new value, new hosts, or both. */
export const Body = SecretReplace;
