// GET /api/mcp/commands - the stdio MCP commands the operator enabled (names, descriptions, values to pick; never their argv), for any signed-in user.
import { withUser } from "@/lib/http/with-user";
import { stdioCommandChoices } from "@/lib/mcp/stdio-commands";

export const dynamic = "force-dynamic";

export const GET = withUser({}, async () => Response.json({ commands: stdioCommandChoices() }));
