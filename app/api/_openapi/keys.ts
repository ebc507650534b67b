import type { ApiOperation } from "@/lib/openapi/operation";

/**
 * API key operations (`/api/keys...`, tag "API keys"). Empty until the key routes land:
 * append one {@link ApiOperation} per exported method of each route file, built from the
 * route's `schema.ts` (see lib/openapi/operation.ts for the shape and an example).
 */
export const keyOperations: ApiOperation[] = [];
