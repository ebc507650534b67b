import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, type EngineFixture, engineFixture, lastData } from "./runs/test-helpers";
import { flushTelemetry, startTelemetry, stopTelemetry, telemetryEnabled } from "./telemetry";
import { runTool } from "./tools/gateway";

/** One span as the OTLP/HTTP JSON body carries it, with its attributes flattened. */
interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, unknown>;
  status?: { code?: number; message?: string };
  service: unknown;
}

type OtlpValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
const plain = (v: OtlpValue) => v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.doubleValue ?? v.boolValue));
const flatten = (attrs: { key: string; value: OtlpValue }[] = []) => Object.fromEntries(attrs.map((a) => [a.key, plain(a.value)]));

/**
 * OpenTelemetry export (docs/architecture.md#events-and-telemetry): a local HTTP server on 127.0.0.1 plays the
 * OTLP/HTTP collector and receives the exporter's real POSTs to /v1/traces while a thread
 * runs on the offline model; spans are flushed, never waited for.
 */
describe("telemetry over OTLP/HTTP", () => {
  let server: Server;
  const spans: ExportedSpan[] = [];
  const requests: { method?: string; url?: string; contentType?: string }[] = [];
  let f: EngineFixture;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on("data", (c: Buffer) => parts.push(c));
      req.on("end", () => {
        requests.push({ method: req.method, url: req.url, contentType: req.headers["content-type"] });
        const body = JSON.parse(Buffer.concat(parts).toString("utf8")) as {
          resourceSpans: {
            resource: { attributes: { key: string; value: OtlpValue }[] };
            scopeSpans: { spans: (Omit<ExportedSpan, "attributes" | "service"> & { attributes: { key: string; value: OtlpValue }[] })[] }[];
          }[];
        };
        for (const rs of body.resourceSpans) {
          const service = flatten(rs.resource.attributes)["service.name"];
          for (const ss of rs.scopeSpans) for (const s of ss.spans) spans.push({ ...s, attributes: flatten(s.attributes), service });
        }
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    expect(await startTelemetry({ endpoint: `http://127.0.0.1:${port}`, serviceName: "phylactery-test" })).toBe(true);
    f = await engineFixture();
  });

  afterAll(async () => {
    await stopTelemetry();
    await f?.cleanup();
    server?.close();
  });

  it("exports a run span per run and a tool span per call, all under the run's trace id", async () => {
    const threadId = await f.newThread();
    const first = await f.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" });
    const firstChunks = await collect(first);
    const approval = lastData(firstChunks, "data-approval")?.data;
    if (!approval) throw new Error("no approval");
    const second = await f.prepare(threadId, { kind: "decision", approvalId: approval.approvalId, decision: "approve", token: approval.token });
    const secondChunks = await collect(second);
    expect(lastData(secondChunks, "data-run")?.data.status).toBe("completed");
    await flushTelemetry();

    expect(requests.length).toBeGreaterThan(0);
    for (const r of requests) expect(r).toMatchObject({ method: "POST", url: "/v1/traces", contentType: "application/json" });
    // The run part carries the active span's trace id.
    const version = (await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId }, include: { flowVersion: true } })).flowVersion.version;
    for (const [run, chunks, status] of [
      [first, firstChunks, "awaiting_approval"],
      [second, secondChunks, "completed"],
    ] as const) {
      expect(lastData(chunks, "data-run")?.data.traceId).toBe(run.traceId);
      const runSpans = spans.filter((s) => s.name === "run" && s.traceId === run.traceId);
      expect(runSpans).toHaveLength(1);
      expect(runSpans[0]).toMatchObject({ service: "phylactery-test", attributes: { "thread.id": threadId, "run.id": run.runId, "flow.version": version, "run.status": status } });
    }
    const runSpan = (traceId: string) => spans.find((s) => s.name === "run" && s.traceId === traceId);
    const read = spans.filter((s) => s.name === "tool read_file");
    expect(read.length).toBeGreaterThan(0);
    for (const s of read) {
      expect(s.traceId).toBe(first.traceId);
      expect(s.parentSpanId).toBe(runSpan(first.traceId)?.spanId);
      expect(s.attributes).toMatchObject({ "tool.name": "read_file", "tool.status": "success" });
      expect(typeof s.attributes["tool.duration_ms"]).toBe("number");
    }
    const write = spans.filter((s) => s.name === "tool write_file");
    expect(write).toHaveLength(1);
    expect(write[0]).toMatchObject({ traceId: second.traceId, parentSpanId: runSpan(second.traceId)?.spanId, attributes: { "tool.status": "success" } });
    expect(first.traceId).not.toBe(second.traceId);
  });

  it("marks a failed tool call with its error code and an error status", async () => {
    expect(telemetryEnabled()).toBe(true);
    const result = await runTool("no_such_tool", {}, { workspaceDir: f.workspacesDir });
    expect(result.errorCode).toBe("unknown_tool");
    await flushTelemetry();
    const span = spans.find((s) => s.name === "tool no_such_tool");
    expect(span).toMatchObject({ attributes: { "tool.status": "error", "tool.error_code": "unknown_tool" }, status: { code: 2, message: "unknown_tool" } });
  });
});
