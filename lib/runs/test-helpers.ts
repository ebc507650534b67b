import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createFlow } from "../db/flows";
import { createTestDb, type TestDb } from "../db/test-db";
import { createThread } from "../db/threads";
import type { FlowDocument } from "../flow/schema";
import { libraryFilesDirFor } from "../tools/library";
import { putSampleLibrary } from "../../tests/fixtures/sample-files";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import type { ResolvedModel } from "../engine/deps";
import type { RunDepsOverrides } from "./run-context";
import { type PreparedRun, prepareRun, type RunInput } from "./run-thread";
import type { RunChunk } from "../events/ui-parts";

/** A migrated SQLite file, a user, the template flow, temp workspaces and a fixed HMAC key. */
export interface EngineFixture {
  t: TestDb;
  userId: string;
  flowId: string;
  workspacesDir: string;
  /** The flow's workspace library folder, holding the sample files (notes.md, release-notes.md, README.md). */
  libraryDir: string;
  secret: string;
  /** Clock used by runs (ms); tests move it to expire challenges. */
  clock: { now: number };
  newThread(task?: string): Promise<string>;
  prepare(threadId: string, input: RunInput, userId?: string): Promise<PreparedRun>;
  /** The run services `prepare` uses (for a worker started by the test). */
  deps: RunDepsOverrides;
  cleanup(): Promise<void>;
}

/**
 * Builds an {@link EngineFixture} on the given flow document (default: the Workspace assistant).
 * The flow's workspace library holds the sample files (notes.md, release-notes.md, README.md;
 * tests/fixtures/sample-files.ts), which flows that mount the library (the default) read,
 * unless `opts.samples` is false.
 */
export async function engineFixture(
  doc: FlowDocument = workspaceAssistant,
  opts: { resolveModel?: (modelId: string) => ResolvedModel /** false: an empty library (default true). */; samples?: boolean } = {},
): Promise<EngineFixture> {
  const t = await createTestDb();
  const user = await t.db.user.create({ data: { email: `u${Date.now()}@test.dev` } });
  const flow = await createFlow(t.db, user.id, doc);
  const workspacesDir = mkdtempSync(path.join(tmpdir(), "phylactery-ws-"));
  if (opts.samples !== false) await putSampleLibrary(workspacesDir, flow.workspaceId);
  const libraryDir = libraryFilesDirFor(workspacesDir, flow.workspaceId);
  const secret = "test-secret-0123456789-abcdefghijklmnop";
  const clock = { now: Date.now() };
  const deps: RunDepsOverrides = { workspacesDir, approvalSecret: secret, now: () => clock.now, ...(opts.resolveModel ? { resolveModel: opts.resolveModel } : {}) };
  return {
    deps,
    t,
    userId: user.id,
    flowId: flow.id,
    workspacesDir,
    libraryDir,
    secret,
    clock,
    newThread: async (task = "Summarize notes.md into summary.md") => (await createThread(t.db, user.id, flow.id, task)).id,
    prepare: (threadId, input, userId = user.id) => prepareRun({ db: t.db, threadId, userId, input, deps }),
    cleanup: async () => {
      await t.cleanup();
      rmSync(workspacesDir, { recursive: true, force: true });
    },
  };
}

/** Drains a prepared run's stream. */
export async function collect(run: PreparedRun): Promise<RunChunk[]> {
  const out: RunChunk[] = [];
  for await (const c of run.stream()) out.push(c);
  return out;
}

/** The last data part of a kind in a list of chunks. */
export function lastData<K extends RunChunk["type"]>(chunks: RunChunk[], type: K): Extract<RunChunk, { type: K }> | undefined {
  return chunks.filter((c): c is Extract<RunChunk, { type: K }> => c.type === type).at(-1);
}
