import { z } from "zod";
import { McpServerInput } from "@/lib/mcp/config";

/** Route params. */
export const Params = z.object({ workspaceId: z.string().min(1).max(64) });

/** POST body: a server name, its transport (stdio command + args, or http URL) and write-only secrets. */
export const Body = McpServerInput;
