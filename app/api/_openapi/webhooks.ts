import { Params as RedeliverParams } from "@/app/api/workspaces/[workspaceId]/webhooks/[webhookId]/deliveries/[deliveryId]/redeliver/schema";
import { Params as DeliveriesParams } from "@/app/api/workspaces/[workspaceId]/webhooks/[webhookId]/deliveries/schema";
import { Body as WebhookPatchBody, Params as WebhookParams } from "@/app/api/workspaces/[workspaceId]/webhooks/[webhookId]/schema";
import { Body as NewWebhookBody, Params as WebhooksParams } from "@/app/api/workspaces/[workspaceId]/webhooks/schema";
import type { ApiOperation } from "@/lib/openapi/operation";

const TAG = "Webhooks";

/** Who may manage webhooks (docs/webhooks.md "Managing webhooks"); every operation says it. */
const OWNERS_ONLY = "Owners of the workspace only: approvers and viewers get 403, anyone else 404.";

const NOT_OWNER = { 403: { description: "Not an owner of the workspace (`role_forbidden`)." } };

/** A webhook as the API shows it (lib/webhooks/endpoints.ts WebhookView): never its secret. */
const WEBHOOK_VIEW = "`id`, `url`, `events`, `enabled`, `createdAt`, `updatedAt`, and counts of `pending` and `failed` deliveries";

/** Webhook operations: a workspace's signed HTTP callbacks and their delivery log (docs/webhooks.md). */
export const webhookOperations: ApiOperation[] = [
  {
    method: "GET",
    path: "/api/workspaces/{workspaceId}/webhooks",
    tag: TAG,
    summary: "List webhooks",
    description: `The workspace's webhooks, oldest first. Never the signing secret. ${OWNERS_ONLY}`,
    auth: "session-or-key",
    params: WebhooksParams,
    responses: { 200: { description: `\`{ webhooks }\`: each with ${WEBHOOK_VIEW}.` }, ...NOT_OWNER },
  },
  {
    method: "POST",
    path: "/api/workspaces/{workspaceId}/webhooks",
    tag: TAG,
    summary: "Add a webhook",
    description: `Adds an enabled webhook that gets a signed POST (Standard Webhooks: \`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`) for each of its \`events\` (\`approval.required\`, \`approval.decided\`, \`run.finished\`, \`run.failed\`). The answer carries the signing secret (\`whsec_...\`): it is never shown again. A private, loopback or reserved address is refused unless the operator opened it. ${OWNERS_ONLY}`,
    auth: "session-or-key",
    params: WebhooksParams,
    body: NewWebhookBody,
    responses: {
      201: { description: "`{ webhook, secret }`: the webhook and its signing secret, shown once." },
      ...NOT_OWNER,
      422: { description: "Invalid input (`issues` names each field), or the URL's address is not allowed (`webhook_url_not_allowed`)." },
    },
  },
  {
    method: "PATCH",
    path: "/api/workspaces/{workspaceId}/webhooks/{webhookId}",
    tag: TAG,
    summary: "Change a webhook",
    description: `Changes its \`url\`, \`events\` or \`enabled\` (at least one). A disabled webhook gets no new deliveries; its pending ones wait until it is enabled again. ${OWNERS_ONLY}`,
    auth: "session-or-key",
    params: WebhookParams,
    body: WebhookPatchBody,
    responses: {
      200: { description: `\`{ webhook }\`: ${WEBHOOK_VIEW}.` },
      ...NOT_OWNER,
      422: { description: "Invalid input (`issues` names each field), or the URL's address is not allowed (`webhook_url_not_allowed`)." },
    },
  },
  {
    method: "DELETE",
    path: "/api/workspaces/{workspaceId}/webhooks/{webhookId}",
    tag: TAG,
    summary: "Delete a webhook",
    description: `Deletes the webhook and its delivery log. ${OWNERS_ONLY}`,
    auth: "session-or-key",
    params: WebhookParams,
    responses: { 204: { description: "Deleted." }, ...NOT_OWNER },
  },
  {
    method: "GET",
    path: "/api/workspaces/{workspaceId}/webhooks/{webhookId}/deliveries",
    tag: TAG,
    summary: "A webhook's delivery log",
    description: `The webhook's last 50 deliveries, newest first: event, status (\`pending\`, \`succeeded\`, \`failed\`), attempts, the last attempt's HTTP status and error in a few words (never a response body), their times, and the body as sent. ${OWNERS_ONLY}`,
    auth: "session-or-key",
    params: DeliveriesParams,
    responses: { 200: { description: "`{ deliveries }`." }, ...NOT_OWNER },
  },
  {
    method: "POST",
    path: "/api/workspaces/{workspaceId}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver",
    tag: TAG,
    summary: "Redeliver",
    description: `Sends any delivery again, whatever its status, as a new delivery due at once: the same body, a new \`webhook-id\`, timestamp and signature; \`redeliveryOf\` names the delivery it repeats. ${OWNERS_ONLY}`,
    auth: "session-or-key",
    params: RedeliverParams,
    responses: {
      202: { description: "`{ delivery }`: the new delivery." },
      ...NOT_OWNER,
      409: { description: "The webhook is disabled (`webhook_disabled`): enable it first." },
    },
  },
];
