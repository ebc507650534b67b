import { randomBytes } from "node:crypto";
import { type Attributes, context, propagation, SpanStatusCode, TraceFlags, trace } from "@opentelemetry/api";
import { env } from "./env";
import { newTraceId } from "./events/bus";

/**
 * Optional OpenTelemetry tracing (every event carries a trace id).
 * When `OTEL_EXPORTER_OTLP_ENDPOINT` is set, {@link startTelemetry} (called from
 * instrumentation.ts) registers a NodeTracerProvider whose BatchSpanProcessor sends spans
 * with the OTLP/HTTP exporter to `<endpoint>/v1/traces`, under the service name
 * `OTEL_SERVICE_NAME`. Spans: one per run ("run") and one per tool call ("tool <name>"),
 * the latter a child of the former, so both carry the run's trace id. Without the
 * endpoint no provider exists, the SDK is never loaded, and the helpers here only draw a
 * random trace id per run.
 */

interface Provider {
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

// On globalThis: one provider per server process, whichever module copy started it, and a
// plain flag read on every run and tool call (no promise, no SDK when tracing is off).
const g = globalThis as { __phylacteryTelemetry?: Promise<Provider | null>; __phylacteryTracing?: boolean };

/** Overrides of the environment (tests). */
export interface TelemetryOptions {
  /** OTLP/HTTP base URL, e.g. `http://127.0.0.1:4318` (default `OTEL_EXPORTER_OTLP_ENDPOINT`). */
  endpoint?: string;
  /** `service.name` of the spans (default `OTEL_SERVICE_NAME`). */
  serviceName?: string;
}

/**
 * Starts tracing once per process when an endpoint is configured; later calls return the
 * first call's answer.
 * @returns true when spans are exported, false when no endpoint is set.
 */
export async function startTelemetry(opts: TelemetryOptions = {}): Promise<boolean> {
  g.__phylacteryTelemetry ??= register(opts);
  return (await g.__phylacteryTelemetry) !== null;
}

async function register(opts: TelemetryOptions): Promise<Provider | null> {
  const endpoint = opts.endpoint ?? env().OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return null;
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import("@opentelemetry/sdk-trace-node"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
  ]);
  // The OTLP/HTTP signal path is appended to the base endpoint (OTLP exporter spec).
  const url = new URL("v1/traces", endpoint.endsWith("/") ? endpoint : `${endpoint}/`).href;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ "service.name": opts.serviceName ?? env().OTEL_SERVICE_NAME }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  provider.register();
  g.__phylacteryTracing = true;
  return provider;
}

/** True once {@link startTelemetry} registered a provider in this process. */
export function telemetryEnabled(): boolean {
  return g.__phylacteryTracing === true;
}

/** Exports every ended span now (waits for the exporter's HTTP request); no-op when off. */
export async function flushTelemetry(): Promise<void> {
  await (await g.__phylacteryTelemetry)?.forceFlush();
}

/**
 * Flushes and shuts the provider down and unregisters the global OpenTelemetry API, so
 * that a later {@link startTelemetry} starts afresh (tests; process exit).
 */
export async function stopTelemetry(): Promise<void> {
  const provider = await g.__phylacteryTelemetry;
  g.__phylacteryTelemetry = undefined;
  g.__phylacteryTracing = false;
  if (!provider) return;
  await provider.shutdown();
  trace.disable();
  context.disable();
  propagation.disable();
}

const tracer = () => trace.getTracer("phylactery");

/** One run's trace (see {@link startRunTrace}). */
export interface RunTrace {
  /** W3C trace id, 32 lower-case hex chars: the run span's when tracing is on, else random. */
  traceId: string;
  /** Calls `fn` with the run span as the active span (its tool spans become children). */
  within<T>(fn: () => T): T;
  /** Ends the run span with the run's final status (an error message marks it failed). */
  end(status: string, error?: string | null): void;
}

/**
 * Starts the span of one run ("run"; attributes such as thread.id, run.id, flow.version).
 * With `traceId` (fixed when the request accepted the run, 32 hex chars), the span joins that
 * trace as the child of a remote parent, so a run executed by a worker, or recovered by
 * another one, stays in the trace of the request that asked for it; without it, the span is
 * a child of the active span if any. Without tracing: that trace id (or a random one) and no span.
 */
export function startRunTrace(attributes: Attributes, traceId?: string): RunTrace {
  if (!telemetryEnabled()) return { traceId: traceId ?? newTraceId(), within: (fn) => fn(), end: () => {} };
  const parent = traceId ? trace.setSpanContext(context.active(), { traceId, spanId: randomBytes(8).toString("hex"), traceFlags: TraceFlags.SAMPLED, isRemote: true }) : context.active();
  const span = tracer().startSpan("run", { attributes }, parent);
  const ctx = trace.setSpan(parent, span);
  return {
    traceId: span.spanContext().traceId,
    within: (fn) => context.with(ctx, fn),
    end(status, error) {
      span.setAttribute("run.status", status);
      if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
      span.end();
    },
  };
}

/**
 * Runs `fn` inside a span named `name` (a child of the active span), then sets the
 * attributes `outcome` reads from its result; an `error` in the outcome, or a throw
 * (recorded and rethrown), marks the span failed. Without tracing: just `fn()`.
 */
export async function withSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>, outcome: (result: T) => { attributes: Attributes; error?: string | undefined }): Promise<T> {
  if (!telemetryEnabled()) return fn();
  const span = tracer().startSpan(name, { attributes });
  try {
    const result = await context.with(trace.setSpan(context.active(), span), fn);
    const o = outcome(result);
    span.setAttributes(o.attributes);
    if (o.error) span.setStatus({ code: SpanStatusCode.ERROR, message: o.error });
    return result;
  } catch (err) {
    span.recordException(err instanceof Error ? err : String(err));
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
    throw err;
  } finally {
    span.end();
  }
}
