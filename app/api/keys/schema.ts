import { z } from "zod";
import { NewApiKey } from "@/lib/auth/api-keys";

/** GET and POST take no route params. */
export const Params = z.object({});

/**
 * POST body: the key's name (1-80 characters, trimmed) and, optionally, the one workspace it
 * reaches (one the user is a member of; omitted: all of the user's workspaces).
 */
export const Body = NewApiKey.strict();
