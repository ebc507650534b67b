import type { RunnableConfig } from "@langchain/core/runnables";
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointPendingWrite,
  type CheckpointTuple,
  copyCheckpoint,
  maxChannelVersion,
  type PendingWrite,
  type SerializerProtocol,
  TASKS,
  WRITES_IDX_MAP,
} from "@langchain/langgraph-checkpoint";
import type { PrismaClient } from "../../generated/prisma/client";

type CheckpointRow = {
  threadId: string;
  checkpointNs: string;
  checkpointId: string;
  parentCheckpointId: string | null;
  type: string;
  checkpoint: Uint8Array;
  metadataType: string;
  metadata: Uint8Array;
};

type WriteRow = { threadId: string; checkpointNs: string; checkpointId: string; taskId: string; channel: string; type: string; value: Uint8Array };

function checkpointKey(r: { threadId: string; checkpointNs: string; checkpointId: string }): string {
  return JSON.stringify([r.threadId, r.checkpointNs, r.checkpointId]);
}

/**
 * LangGraph checkpointer on Prisma (SPEC.md 5): stores checkpoints and pending writes in
 * the `Checkpoint` / `CheckpointWrite` models, serialized with the saver's serde
 * (`dumpsTyped` / `loadsTyped`). Same semantics as the official `SqliteSaver`
 * (@langchain/langgraph-checkpoint-sqlite), and checked by the official conformance suite
 * (@langchain/langgraph-checkpoint-validation).
 */
export class PrismaCheckpointSaver extends BaseCheckpointSaver {
  private readonly db: PrismaClient;

  /** @param db a Prisma client whose schema has the Checkpoint and CheckpointWrite models. */
  constructor(db: PrismaClient, serde?: SerializerProtocol) {
    super(serde);
    this.db = db;
  }

  /**
   * The checkpoint named by `config.configurable.checkpoint_id`, or the latest of the
   * thread and namespace when no id is given; `undefined` when there is none.
   */
  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const { thread_id, checkpoint_ns = "", checkpoint_id } = config.configurable ?? {};
    if (thread_id === undefined) return undefined;
    const row = checkpoint_id
      ? await this.db.checkpoint.findUnique({
          where: {
            threadId_checkpointNs_checkpointId: {
              threadId: String(thread_id),
              checkpointNs: checkpoint_ns,
              checkpointId: checkpoint_id,
            },
          },
        })
      : await this.db.checkpoint.findFirst({
          where: { threadId: String(thread_id), checkpointNs: checkpoint_ns },
          orderBy: { checkpointId: "desc" },
        });
    if (!row) return undefined;
    return this.toTuple(row);
  }

  /**
   * Checkpoints matching `config` (thread, and namespace when given), newest first,
   * optionally before `options.before`'s checkpoint id, whose metadata equals every
   * defined key of `options.filter`, at most `options.limit`.
   */
  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const { limit, before, filter } = options ?? {};
    const threadId = config.configurable?.thread_id;
    const ns = config.configurable?.checkpoint_ns;
    const beforeId = before?.configurable?.checkpoint_id;
    const wanted = Object.entries(filter ?? {}).filter(([, v]) => v !== undefined);
    const rows = await this.db.checkpoint.findMany({
      where: {
        ...(threadId ? { threadId: String(threadId) } : {}),
        ...(ns !== undefined && ns !== null ? { checkpointNs: ns } : {}),
        ...(beforeId !== undefined ? { checkpointId: { lt: beforeId } } : {}),
      },
      orderBy: { checkpointId: "desc" },
      ...(limit && wanted.length === 0 ? { take: Number.parseInt(String(limit), 10) } : {}),
    });
    const selected: CheckpointRow[] = [];
    for (const row of rows) {
      if (limit && selected.length >= limit) break;
      if (wanted.length > 0) {
        const metadata = (await this.serde.loadsTyped(row.metadataType, row.metadata)) as Record<string, unknown>;
        const matches = wanted.every(([k, v]) => JSON.stringify(metadata?.[k]) === JSON.stringify(v));
        if (!matches) continue;
      }
      selected.push(row);
    }
    // One query for the pending writes of every selected checkpoint, not one per row.
    const writes = selected.length
      ? await this.db.checkpointWrite.findMany({
          where: {
            OR: selected.map((r) => ({ threadId: r.threadId, checkpointNs: r.checkpointNs, checkpointId: r.checkpointId })),
          },
          orderBy: [{ taskId: "asc" }, { idx: "asc" }],
        })
      : [];
    const byCheckpoint = new Map<string, WriteRow[]>();
    for (const w of writes) {
      const key = checkpointKey(w);
      byCheckpoint.set(key, [...(byCheckpoint.get(key) ?? []), w]);
    }
    for (const row of selected) yield await this.toTuple(row, byCheckpoint.get(checkpointKey(row)) ?? []);
  }

  /**
   * Stores a checkpoint (insert or replace) as a child of `config`'s checkpoint id.
   * @returns the config naming the stored checkpoint.
   * @throws Error when `config.configurable.thread_id` is missing.
   */
  async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions?: ChannelVersions,
  ): Promise<RunnableConfig> {
    if (!config.configurable) throw new Error("Empty configuration supplied.");
    const threadId = config.configurable.thread_id;
    const checkpointNs: string = config.configurable.checkpoint_ns ?? "";
    const parentCheckpointId: string | undefined = config.configurable.checkpoint_id;
    if (!threadId) throw new Error(`Missing "thread_id" field in passed "config.configurable".`);
    const { channel_values: values, ...rest } = copyCheckpoint(checkpoint);
    const changed = newVersions ?? checkpoint.channel_versions;
    const blobs = await Promise.all(
      Object.entries(changed).map(async ([channel, version]) => {
        const present = Object.hasOwn(values, channel);
        const [type, value] = present ? await this.serde.dumpsTyped(values[channel]) : ["empty", new Uint8Array()];
        return {
          threadId: String(threadId),
          checkpointNs,
          channel,
          version: String(version),
          type,
          value: Buffer.from(value),
        };
      }),
    );
    const [[type, serialized], [metadataType, serializedMetadata]] = await Promise.all([
      this.serde.dumpsTyped({ ...rest, channel_values: {} }),
      this.serde.dumpsTyped(metadata),
    ]);
    const data = {
      parentCheckpointId: parentCheckpointId ?? null,
      type,
      checkpoint: Buffer.from(serialized),
      metadataType,
      metadata: Buffer.from(serializedMetadata),
      metadataJson: safeJson(metadata),
    };
    const key = { threadId: String(threadId), checkpointNs, checkpointId: checkpoint.id };
    // Plain INSERT ... ON CONFLICT (SQLite and PostgreSQL alike): Prisma's upsert reads the
    // stored row back, which for large channel values costs as much as writing it.
    await this.db.$transaction([
      ...blobs.map(
        (b) => this.db.$executeRaw`INSERT INTO "CheckpointBlob" ("threadId", "checkpointNs", "channel", "version", "type", "value")
          VALUES (${b.threadId}, ${b.checkpointNs}, ${b.channel}, ${b.version}, ${b.type}, ${b.value})
          ON CONFLICT ("threadId", "checkpointNs", "channel", "version") DO UPDATE SET "type" = excluded."type", "value" = excluded."value"`,
      ),
      this.db.$executeRaw`INSERT INTO "Checkpoint" ("threadId", "checkpointNs", "checkpointId", "parentCheckpointId", "type", "checkpoint", "metadataType", "metadata", "metadataJson")
        VALUES (${key.threadId}, ${key.checkpointNs}, ${key.checkpointId}, ${data.parentCheckpointId}, ${data.type}, ${data.checkpoint}, ${data.metadataType}, ${data.metadata}, ${data.metadataJson})
        ON CONFLICT ("threadId", "checkpointNs", "checkpointId") DO UPDATE SET "parentCheckpointId" = excluded."parentCheckpointId", "type" = excluded."type",
          "checkpoint" = excluded."checkpoint", "metadataType" = excluded."metadataType", "metadata" = excluded."metadata", "metadataJson" = excluded."metadataJson"`,
    ]);
    return { configurable: { thread_id: threadId, checkpoint_ns: checkpointNs, checkpoint_id: checkpoint.id } };
  }

  /**
   * Stores a task's pending writes for a checkpoint. Special channels (WRITES_IDX_MAP)
   * replace; ordinary writes are kept once (insert or ignore), as in SqliteSaver.
   * @throws Error when thread_id or checkpoint_id is missing from the config.
   */
  async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    if (!config.configurable) throw new Error("Empty configuration supplied.");
    const threadId = config.configurable.thread_id;
    const checkpointId = config.configurable.checkpoint_id;
    if (!threadId) throw new Error("Missing thread_id field in config.configurable.");
    if (!checkpointId) throw new Error("Missing checkpoint_id field in config.configurable.");
    const checkpointNs: string = config.configurable.checkpoint_ns ?? "";
    const allSpecial = writes.every(([channel]) => channel in WRITES_IDX_MAP);
    const rows = await Promise.all(
      writes.map(async ([channel, value], idx) => {
        const [type, serialized] = await this.serde.dumpsTyped(value);
        return {
          threadId: String(threadId),
          checkpointNs,
          checkpointId: String(checkpointId),
          taskId,
          idx: WRITES_IDX_MAP[channel] ?? idx,
          channel,
          type,
          value: Buffer.from(serialized),
          taskPath: "",
        };
      }),
    );
    await this.db.$transaction(
      rows.map((r) =>
        allSpecial
          ? this.db.$executeRaw`INSERT INTO "CheckpointWrite" ("threadId", "checkpointNs", "checkpointId", "taskId", "idx", "channel", "type", "value", "taskPath")
              VALUES (${r.threadId}, ${r.checkpointNs}, ${r.checkpointId}, ${r.taskId}, ${r.idx}, ${r.channel}, ${r.type}, ${r.value}, ${r.taskPath})
              ON CONFLICT ("threadId", "checkpointNs", "checkpointId", "taskId", "idx") DO UPDATE SET "channel" = excluded."channel", "type" = excluded."type", "value" = excluded."value"`
          : this.db.$executeRaw`INSERT INTO "CheckpointWrite" ("threadId", "checkpointNs", "checkpointId", "taskId", "idx", "channel", "type", "value", "taskPath")
              VALUES (${r.threadId}, ${r.checkpointNs}, ${r.checkpointId}, ${r.taskId}, ${r.idx}, ${r.channel}, ${r.type}, ${r.value}, ${r.taskPath})
              ON CONFLICT ("threadId", "checkpointNs", "checkpointId", "taskId", "idx") DO NOTHING`,
      ),
    );
  }

  /** Deletes every checkpoint and pending write of a thread. */
  async deleteThread(threadId: string): Promise<void> {
    await this.db.$transaction([
      this.db.checkpoint.deleteMany({ where: { threadId } }),
      this.db.checkpointWrite.deleteMany({ where: { threadId } }),
      this.db.checkpointBlob.deleteMany({ where: { threadId } }),
    ]);
  }

  /** Builds a tuple; `preloaded` are the row's pending writes when the caller fetched them. */
  private async toTuple(row: CheckpointRow, preloaded?: WriteRow[]): Promise<CheckpointTuple> {
    const writes =
      preloaded ??
      (await this.db.checkpointWrite.findMany({
        where: { threadId: row.threadId, checkpointNs: row.checkpointNs, checkpointId: row.checkpointId },
        orderBy: [{ taskId: "asc" }, { idx: "asc" }],
      }));
    const pendingWrites: CheckpointPendingWrite[] = await Promise.all(
      writes.map(
        async (w) => [w.taskId, w.channel, await this.serde.loadsTyped(w.type, w.value)] as CheckpointPendingWrite,
      ),
    );
    const checkpoint = (await this.serde.loadsTyped(row.type, row.checkpoint)) as Checkpoint;
    checkpoint.channel_values = await this.loadChannelValues(row, checkpoint.channel_versions);
    if (checkpoint.v < 4 && row.parentCheckpointId != null) {
      await this.migratePendingSends(checkpoint, row.threadId, row.checkpointNs, row.parentCheckpointId);
    }
    const base = { thread_id: row.threadId, checkpoint_ns: row.checkpointNs };
    return {
      config: { configurable: { ...base, checkpoint_id: row.checkpointId } },
      checkpoint,
      metadata: (await this.serde.loadsTyped(row.metadataType, row.metadata)) as CheckpointMetadata,
      parentConfig: row.parentCheckpointId
        ? { configurable: { ...base, checkpoint_id: row.parentCheckpointId } }
        : undefined,
      pendingWrites,
    };
  }

  /** Reads the value of each channel at the version the checkpoint names. */
  private async loadChannelValues(row: CheckpointRow, versions: ChannelVersions): Promise<Record<string, unknown>> {
    const entries = Object.entries(versions ?? {});
    if (entries.length === 0) return {};
    const blobs = await this.db.checkpointBlob.findMany({
      where: {
        threadId: row.threadId,
        checkpointNs: row.checkpointNs,
        OR: entries.map(([channel, version]) => ({ channel, version: String(version) })),
      },
    });
    const values: Record<string, unknown> = {};
    for (const blob of blobs) {
      if (blob.type === "empty") continue;
      values[blob.channel] = await this.serde.loadsTyped(blob.type, blob.value);
    }
    return values;
  }

  /** Checkpoints older than format v4 kept sends as writes of the parent (as SqliteSaver). */
  private async migratePendingSends(
    checkpoint: Checkpoint,
    threadId: string,
    checkpointNs: string,
    parentCheckpointId: string,
  ): Promise<void> {
    const sends = await this.db.checkpointWrite.findMany({
      where: { threadId, checkpointNs, checkpointId: parentCheckpointId, channel: TASKS },
      orderBy: [{ taskId: "asc" }, { idx: "asc" }],
    });
    const mutable = checkpoint as Checkpoint & { channel_values: Record<string, unknown> };
    mutable.channel_values ??= {};
    mutable.channel_values[TASKS] = await Promise.all(sends.map((s) => this.serde.loadsTyped(s.type, s.value)));
    mutable.channel_versions[TASKS] =
      Object.keys(checkpoint.channel_versions).length > 0
        ? maxChannelVersion(...Object.values(checkpoint.channel_versions))
        : this.getNextVersion(undefined);
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "{}";
  } catch {
    return "{}";
  }
}
