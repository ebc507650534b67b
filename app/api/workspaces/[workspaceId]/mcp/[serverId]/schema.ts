import { z } from "zod";
import { McpServerPatch } from "@/lib/mcp/config";

/** Route params. */
export const Params = z.object({ workspaceId: z.string().min(1).max(64), serverId: z.string().min(1).max(64) });

/** PATCH body: a new command/args (stdio) or URL (http); secrets set (string) or removed (null). */
export const Body = McpServerPatch;
