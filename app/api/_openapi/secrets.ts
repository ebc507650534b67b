import { Body as ReplaceSecretBody, Params as SecretParams } from "@/app/api/workspaces/[workspaceId]/secrets/[name]/schema";
import { Body as NewSecretBody, Params as SecretsParams } from "@/app/api/workspaces/[workspaceId]/secrets/schema";
import type { ApiOperation } from "@/lib/openapi/operation";

const TAG = "Secrets";

/** Who may change secrets (docs/secrets.md "Managing secrets"). */
const OWNERS_ONLY = "Owners of the workspace only: approvers and viewers get 403, anyone else 404. An API key made for this workspace works as its user.";

const NOT_OWNER = { 403: { description: "Not an owner of the workspace (`role_forbidden`)." } };

/** A secret as the API shows it (lib/workspace-secrets/service.ts SecretView): never its value. */
const SECRET_VIEW = "`name`, `hosts`, `createdBy`, `createdAt`, `updatedAt`, `lastUsedAt`; never the value";

/** Workspace secret operations (docs/secrets.md): values tools refer to as `{{secret:NAME}}`. */
export const secretOperations: ApiOperation[] = [
  {
    method: "GET",
    path: "/api/workspaces/{workspaceId}/secrets",
    tag: TAG,
    summary: "List secrets",
    description: "The workspace's secrets by name, for every member: names, hosts and dates. No answer ever carries a value.",
    auth: "session-or-key",
    params: SecretsParams,
    responses: { 200: { description: `\`{ secrets }\`: each with ${SECRET_VIEW}.` } },
  },
  {
    method: "POST",
    path: "/api/workspaces/{workspaceId}/secrets",
    tag: TAG,
    summary: "Add a secret",
    description: `Adds a secret: \`name\` (\`^[A-Z][A-Z0-9_]{0,63}$\`), \`value\` (1 to 8,192 bytes, one line; sealed at rest and never shown again) and \`hosts\` it may be sent to (\`api.example.com\`, \`*.example.com\`, \`host:port\`). ${OWNERS_ONLY}`,
    auth: "session-or-key",
    params: SecretsParams,
    body: NewSecretBody,
    responses: {
      201: { description: `\`{ secret }\`: ${SECRET_VIEW}.` },
      ...NOT_OWNER,
      409: { description: "The workspace already has a secret of this name (`secret_exists`)." },
      422: { description: "Invalid input (`issues` names each field)." },
    },
  },
  {
    method: "PUT",
    path: "/api/workspaces/{workspaceId}/secrets/{name}",
    tag: TAG,
    summary: "Replace a secret",
    description: `Replaces its \`value\`, its \`hosts\`, or both. ${OWNERS_ONLY}`,
    auth: "session-or-key",
    params: SecretParams,
    body: ReplaceSecretBody,
    responses: {
      200: { description: `\`{ secret }\`: ${SECRET_VIEW}.` },
      ...NOT_OWNER,
      404: { description: "No such secret (`secret_not_found`) or workspace." },
      422: { description: "Invalid input (`issues` names each field)." },
    },
  },
  {
    method: "DELETE",
    path: "/api/workspaces/{workspaceId}/secrets/{name}",
    tag: TAG,
    summary: "Delete a secret",
    description: `Deletes it; tool calls that refer to it are refused from then on (\`unknown_secret\`). ${OWNERS_ONLY}`,
    auth: "session-or-key",
    params: SecretParams,
    responses: { 204: { description: "Deleted." }, ...NOT_OWNER, 404: { description: "No such secret (`secret_not_found`) or workspace." } },
  },
];
