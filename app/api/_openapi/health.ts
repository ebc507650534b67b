import { z } from "zod";
import type { ApiOperation } from "@/lib/openapi/operation";

const TAG = "Meta";

/** Public operations about the service itself: liveness and this description. */
export const healthOperations: ApiOperation[] = [
  {
    method: "GET",
    path: "/api/health",
    tag: TAG,
    summary: "Health",
    description: "200 once the database answers; 503 otherwise. No session needed.",
    auth: "none",
    responses: {
      200: { description: "The service is up.", schema: z.object({ ok: z.literal(true) }) },
      503: { description: "The database does not answer.", schema: z.object({ ok: z.literal(false), error: z.string() }) },
    },
  },
  {
    method: "GET",
    path: "/api/openapi.json",
    tag: TAG,
    summary: "This API's OpenAPI document",
    description: "The OpenAPI 3.1 description of every route, generated from the routes' own input schemas. Public; cacheable for 5 minutes.",
    auth: "none",
    responses: { 200: { description: "An OpenAPI 3.1 document.", schema: { type: "object", required: ["openapi", "info", "paths"] } } },
  },
];
