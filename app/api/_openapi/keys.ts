import { Params as KeyParams } from "@/app/api/keys/[keyId]/schema";
import { Body as NewKeyBody } from "@/app/api/keys/schema";
import type { ApiOperation } from "@/lib/openapi/operation";

const TAG = "API keys";

/** API key operations: a session's power only (a key never makes or revokes keys; docs/api.md#api-keys). */
export const keyOperations: ApiOperation[] = [
  {
    method: "POST",
    path: "/api/keys",
    tag: TAG,
    summary: "Make an API key",
    description:
      "Makes a key for the signed-in user, for every workspace of theirs or only `workspaceId`. The answer is the only time the key is shown; only its SHA-256 is stored. Keys authenticate every JSON API as `Authorization: Bearer <key>` or `x-api-key: <key>`, with the user's roles.",
    auth: "session",
    body: NewKeyBody,
    responses: {
      201: { description: "The key, shown once (`key`), with its id, name, prefix and workspace." },
      403: { description: "The request came with an API key: keys are made from a session (Settings)." },
    },
  },
  {
    method: "GET",
    path: "/api/keys",
    tag: TAG,
    summary: "List my API keys",
    description: "The user's keys: name, prefix, workspace, when made, last used and revoked. Never the key or its hash.",
    auth: "session",
    responses: { 200: { description: "`{ keys: [...] }`, newest first." }, 403: { description: "The request came with an API key." } },
  },
  {
    method: "DELETE",
    path: "/api/keys/{keyId}",
    tag: TAG,
    summary: "Revoke an API key",
    description: "Revokes one of the user's keys at once: the next request with it gets 401 `invalid_api_key`. Revoking twice is not an error.",
    auth: "session",
    params: KeyParams,
    responses: { 200: { description: "`{ revoked: true }`." }, 403: { description: "The request came with an API key." } },
  },
];
