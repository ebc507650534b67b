import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { approvalSecret } from "../approvals/secret";
import { closeChallenge, consumeChallenge, createChallenge } from "../approvals/service";
import { runWritesSqlOf } from "../db/checkpointer-stores";
import type { Db } from "../db/client";
import { prismaErrorCode } from "../db/prisma-error-code";
import { env } from "../env";
import { isAppError } from "../errors";
import { compileFlowSpec } from "../flow/compile";
import type { FlowDocument } from "../flow/schema";
import { resolveModel } from "../models/resolve";
import { reconcileTool, runTool } from "../tools/gateway";
import { builtinRegistry, type ToolRegistry } from "../tools/registry";
import { libraryFilesDirFor } from "../tools/library";
import { ensureWorkspace } from "../tools/workspace";
import { workspaceSecretAccess } from "../workspace-secrets/access";
import type { EngineDeps, ResolvedModel } from "./deps";
import { bindMemory, type MemoryBinding } from "./memory-binding";
import { prismaToolExecutions } from "./tool-executions-prisma";

/** Options of {@link createEngineDeps}; everything defaults to the server's configuration. */
export interface EngineDepsOptions {
  db: Db;
  doc: FlowDocument;
  /** Model resolver (tests pass a scripted model). */
  resolveModel?: (modelId: string) => ResolvedModel;
  workspacesDir?: string;
  /**
   * The flow's workspace: its library is mounted when the flow's settings say so
   * (docs/library.md), and its secrets reach tool calls (docs/secrets.md); absent: neither.
   */
  workspaceId?: string;
  approvalSecret?: string;
  approvalTtlMs?: number;
  /** The tools the flow may use (default: the built-ins); see workspaceToolRegistry. */
  registry?: ToolRegistry;
  /** Memory binding (default: the memory service per the flow's settings; null: none). */
  memory?: MemoryBinding | null;
  /** The run's permission level (default "user"); see EngineDeps.permission. */
  permission?: "user" | "admin" | "system";
  now?: () => number;
}

export { approvalSecret };

/**
 * Wires the graph's nodes to the real services: the flow's compiled spec and policies,
 * models from the environment (offline when none), the tool gateway over the thread's
 * sandboxed workspace, approval challenges and audit entries in the database.
 * @throws AppError unprocessable when the flow cannot run (see compileFlowSpec).
 */
export function createEngineDeps(opts: EngineDepsOptions): EngineDeps {
  const now = opts.now ?? Date.now;
  const secret = opts.approvalSecret ?? approvalSecret();
  const workspaces = opts.workspacesDir ?? env().WORKSPACES_DIR;
  const approvalOpts = { db: opts.db, secret, now };
  const registry = opts.registry ?? builtinRegistry;
  const network = opts.doc.settings.network;
  // The workspace library, read-only under each thread's files (docs/library.md "Mounting").
  const libraryDir = opts.doc.settings.library.mount && opts.workspaceId ? libraryFilesDirFor(workspaces, opts.workspaceId) : undefined;
  const memory = opts.memory === undefined ? bindMemory({ db: opts.db, settings: opts.doc.settings.memory, now }) : opts.memory;
  const blobs: EngineDeps["blobs"] = {
    async put(threadId, toolName, toolCallId, content) {
      const id = randomBytes(12).toString("base64url");
      await opts.db.evictedBlob.create({ data: { id, threadId, toolName, toolCallId, sizeChars: content.length, content } });
      return `blob:${id}`;
    },
    async read(threadId, pointer) {
      const id = pointer.startsWith("blob:") ? pointer.slice(5) : pointer;
      const row = await opts.db.evictedBlob.findFirst({ where: { id, threadId }, select: { content: true, sizeChars: true } });
      return row ?? null;
    },
  };
  return {
    flow: compileFlowSpec(opts.doc, { known: (n) => Boolean(registry.get(n)), sideEffect: registry.isSideEffect }),
    permission: opts.permission ?? "user",
    resolveModel: opts.resolveModel ?? ((id) => resolveModel(id)),
    tools: {
      describe(name) {
        const t = registry.get(name);
        return t ? { description: t.description, input: t.input, sideEffect: t.sideEffect } : undefined;
      },
      async run(name, args, threadId, call) {
        const workspaceDir = await ensureWorkspace(workspaces, threadId);
        // Large outputs are kept whole (up to 10M chars) and evicted to blob storage.
        return runTool(name, args, {
          workspaceDir,
          ...(libraryDir ? { libraryDir } : {}),
          registry,
          maxOutputChars: 10_000_000,
          blobs: { read: (pointer) => blobs.read(threadId, pointer) },
          // Network only to the hosts the flow's allowlist names (SPEC.md 7).
          ...(network.allowHosts.length > 0 ? { network } : {}),
          // remember / recall reach only the thread's workspace (SPEC.md 6 isolation).
          ...(memory ? { memory: memory.forTool(threadId, call) } : {}),
          ...(call ? { callKey: callKey(threadId, call.toolCallId) } : {}),
          // `{{secret:NAME}}` is swapped for its value inside the gateway, after the approval (docs/secrets.md).
          ...(opts.workspaceId ? { secrets: workspaceSecretAccess(opts.db, opts.workspaceId, threadId, now) } : {}),
        });
      },
      async reconcile(name, args, threadId, call) {
        const workspaceDir = await ensureWorkspace(workspaces, threadId);
        return reconcileTool(name, args, { workspaceDir, ...(libraryDir ? { libraryDir } : {}), registry, callKey: callKey(threadId, call.toolCallId) });
      },
    },
    blobs,
    ...(memory ? { memory: memory.engine } : {}),
    approvals: {
      create: (input) => createChallenge({ ...approvalOpts, ttlMs: opts.approvalTtlMs ?? env().APPROVAL_TTL_MS }, input),
      async consume(input) {
        try {
          const { replayed } = await consumeChallenge(approvalOpts, input);
          return { ok: true, replayed };
        } catch (err) {
          if (isAppError(err)) return { ok: false, reason: err.reason, message: err.message };
          throw err;
        }
      },
      async reject(input) {
        try {
          await closeChallenge(approvalOpts, input, input.decision ?? "reject", input.reason);
        } catch (err) {
          // Decided from a card (already rejected) or expired meanwhile: nothing to mark.
          if (!isAppError(err) || (err.reason !== "approval_already_decided" && err.reason !== "approval_expired")) throw err;
        }
        const who = await opts.db.user.findUnique({ where: { id: input.userId }, select: { name: true, email: true } });
        return { by: who?.name?.trim() || who?.email || "the approver" };
      },
    },
    executions: prismaToolExecutions(opts.db),
    async audit(threadId, record) {
      const data = {
        threadId,
        actorId: record.actor,
        action: record.action,
        toolName: record.tool ?? null,
        argsHash: record.args_hash ?? null,
        detail: JSON.stringify({ at: record.at, detail: record.detail ?? null }),
        key: record.key ?? null,
      };
      // One statement on the driver (lib/db/run-writes-sql.ts), which drops a repeated key itself.
      const sql = runWritesSqlOf(opts.db);
      if (sql) {
        await sql.audit(data);
        return;
      }
      try {
        await opts.db.auditEntry.create({ data });
      } catch (err) {
        // The same keyed entry, written by a node that ran again after a crash: once is enough.
        if (!record.key || prismaErrorCode(err) !== "P2002") throw err;
      }
    },
    now,
  };
}

/**
 * The key of one tool call across its attempts (docs/durability.md "Side effects"): the
 * SHA-256 of its thread and call id, 32 hex chars. Sent as `Idempotency-Key` by http_request.
 */
export function callKey(threadId: string, toolCallId: string): string {
  return createHash("sha256").update(`${threadId}\u0000${toolCallId}`).digest("hex").slice(0, 32);
}
