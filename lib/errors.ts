/**
 * One error class for the product, with string codes that map to HTTP statuses
 * (docs/architecture.md#errors). Thrown by lib/ services; turned into a Response by lib/http/errors.ts.
 */
export type AppErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "gone"
  | "payload_too_large"
  | "unsupported_media_type"
  | "unprocessable"
  | "too_many_requests"
  | "internal";

const STATUS: Record<AppErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  too_many_requests: 429,
  internal: 500,
};

/** An error a caller can act on. `reason` is a stable machine code (e.g. "approval_expired"). */
export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly reason: string;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: AppErrorCode, reason: string, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.reason = reason;
    this.details = details;
  }

  /** HTTP status for this error's code. */
  get status(): number {
    return STATUS[this.code];
  }
}

/** Type guard for {@link AppError}. */
export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

/**
 * A structured run error (docs/architecture.md#errors): code, message, severity, whether a retry
 * may help, and the suggested action.
 */
export interface StructuredError {
  code: string;
  message: string;
  severity: "INFO" | "WARNING" | "CRITICAL";
  retryable: boolean;
  suggested_action: "RETRY" | "HALT";
  metadata?: Record<string, unknown>;
}

/** Builds a {@link StructuredError}; non-retryable CRITICAL errors suggest HALT. */
export function structuredError(code: string, message: string, opts: Partial<Omit<StructuredError, "code" | "message">> = {}): StructuredError {
  const retryable = opts.retryable ?? false;
  return {
    code,
    message,
    severity: opts.severity ?? (retryable ? "WARNING" : "CRITICAL"),
    retryable,
    suggested_action: opts.suggested_action ?? (retryable ? "RETRY" : "HALT"),
    ...(opts.metadata ? { metadata: opts.metadata } : {}),
  };
}
