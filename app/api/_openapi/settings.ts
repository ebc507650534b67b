import { Body, DeleteQuery } from "@/app/api/settings/providers/schema";
import type { ApiOperation } from "@/lib/openapi/operation";

const TAG = "Settings";

/** The user's model providers; API keys are write-only (sealed at rest, never returned). */
export const settingsOperations: ApiOperation[] = [
  {
    method: "GET",
    path: "/api/settings/providers",
    tag: TAG,
    summary: "List my model providers",
    description: "Each provider's settings; a stored API key shows only as `hasKey` and its last four characters.",
    auth: "session-or-key",
    responses: { 200: { description: "`{ providers }`." } },
  },
  {
    method: "PUT",
    path: "/api/settings/providers",
    tag: TAG,
    summary: "Save a model provider",
    description:
      "Saves one provider: `apiKey` omitted keeps the stored key, an empty string removes it; `isDefault` makes it the one runs use. A base URL naming a private address is refused unless the operator allows it.",
    auth: "session-or-key",
    body: Body,
    responses: { 200: { description: "The provider as saved (without its key)." } },
  },
  {
    method: "DELETE",
    path: "/api/settings/providers",
    tag: TAG,
    summary: "Remove a model provider",
    auth: "session-or-key",
    query: DeleteQuery,
    responses: { 204: { description: "Removed." } },
  },
];
