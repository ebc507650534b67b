import type { JsonSchema } from "./operation";

/**
 * The `error` object of every error answer (lib/http/errors.ts `ErrorBody["error"]`): a status
 * `code` (lib/errors.ts AppErrorCode), a stable machine `reason` ("approval_expired"), a message
 * naming the field and saying what to do, and, for invalid input, one issue per field (dotted
 * path as zod writes it). Shared by {@link ErrorBodySchema} and {@link PlatformErrorBodySchema}.
 * @param extraCodes codes beyond lib/errors.ts AppErrorCode that only some answers carry.
 */
function errorObject(extraCodes: string[] = []): JsonSchema {
  return {
    type: "object",
    required: ["code", "reason", "message"],
    properties: {
      code: {
        type: "string",
        enum: [
          "bad_request",
          "unauthorized",
          "forbidden",
          "not_found",
          "conflict",
          "gone",
          "payload_too_large",
          "unsupported_media_type",
          "unprocessable",
          "too_many_requests",
          "internal",
          ...extraCodes,
        ],
        description: "The kind of error; it matches the HTTP status.",
      },
      reason: { type: "string", description: 'A stable machine code for this error, e.g. "signed_out", "approval_expired", "invalid_input".' },
      message: { type: "string", description: "What went wrong and what to do, in plain words; it names the field for invalid input." },
      issues: {
        type: "array",
        description: "Invalid input: one entry per field.",
        items: {
          type: "object",
          required: ["path", "message"],
          properties: { path: { type: "string", description: 'Dotted path of the field ("input.text"); "" for the whole input.' }, message: { type: "string" } },
        },
      },
    },
  };
}

/**
 * The JSON body of every error answer of the app's API (lib/http/errors.ts `ErrorBody`):
 * `{ error: { code, reason, message, issues? } }`. The LangGraph Platform API under
 * /api/langgraph answers {@link PlatformErrorBodySchema} instead.
 */
export const ErrorBodySchema: JsonSchema = { type: "object", required: ["error"], properties: { error: errorObject() } };

/**
 * The JSON body of every error answer of the LangGraph Platform API under /api/langgraph
 * (lib/langgraph-api/route.ts `PlatformErrorBody`; docs/langgraph-api.md#errors): the Platform's
 * `detail`, which the official clients show, with our `error` object alongside.
 */
export const PlatformErrorBodySchema: JsonSchema = {
  type: "object",
  required: ["detail", "error"],
  properties: {
    detail: { type: "string", description: "What went wrong and what to do (the same text as `error.message`); the LangGraph SDK raises it." },
    // 405 `method_not_allowed`: an endpoint of the Platform we deliberately do not offer (lib/langgraph-api/unsupported.ts).
    error: errorObject(["method_not_allowed"]),
  },
};

/**
 * The ways to authenticate: an API key made in Settings, sent as `Authorization: Bearer
 * phy_...` or `x-api-key: phy_...`, or the browser's Auth.js session cookie (set by signing
 * in; its name has a `__Secure-` prefix over HTTPS).
 */
export const SECURITY_SCHEMES: Record<string, JsonSchema> = {
  bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "API key (phy_...)", description: "An API key from Settings, as `Authorization: Bearer phy_...`." },
  apiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key", description: "An API key from Settings, as `x-api-key: phy_...`." },
  session: {
    type: "apiKey",
    in: "cookie",
    name: "authjs.session-token",
    description: "The browser's session after signing in (`__Secure-authjs.session-token` over HTTPS).",
  },
};

/** The `security` requirement of each `ApiOperation["auth"]` (alternatives: any one suffices). */
export const SECURITY_BY_AUTH: Record<"session-or-key" | "session" | "none", Record<string, string[]>[]> = {
  "session-or-key": [{ bearerAuth: [] }, { apiKeyHeader: [] }, { session: [] }],
  session: [{ session: [] }],
  none: [],
};
