import type { ApiOperation } from "@/lib/openapi/operation";

/**
 * Webhook operations (endpoints and their delivery log, tag "Webhooks"). Empty until the
 * webhook routes land: append one {@link ApiOperation} per exported method of each route
 * file, built from the route's `schema.ts` (see lib/openapi/operation.ts for the shape).
 */
export const webhookOperations: ApiOperation[] = [];
