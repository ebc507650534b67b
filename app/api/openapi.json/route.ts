// GET /api/openapi.json - the OpenAPI 3.1 description of this API (public: no session or key needed).
import { API_OPERATIONS } from "@/app/api/_openapi";
import { openApiDocument } from "@/lib/openapi/document";

/** Seconds a browser or proxy may keep the document: it changes only when the app is deployed again. */
const MAX_AGE_S = 300;

export function GET(): Response {
  return Response.json(openApiDocument(API_OPERATIONS), { headers: { "cache-control": `public, max-age=${MAX_AGE_S}` } });
}
