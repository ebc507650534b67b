import type { PrismaClient } from "../../generated/prisma/client";
import { type BlobRow, bytesOf, type CheckpointKey, type CheckpointRow, type CheckpointStore, type ListQuery, type StoredCheckpoint, type WriteRow } from "./checkpointer-store";

const WRITE_ORDER = [{ taskId: "asc" as const }, { idx: "asc" as const }];

/** Whether a row's `metadataJson` has every key of `filter` with the same JSON text. */
function matches(row: CheckpointRow, filter: Record<string, unknown>): boolean {
  let metadata: Record<string, unknown>;
  try {
    metadata = JSON.parse(row.metadataJson) as Record<string, unknown>;
  } catch {
    return false;
  }
  return Object.entries(filter).every(([k, v]) => JSON.stringify(metadata?.[k]) === JSON.stringify(v));
}

/**
 * Checkpoint storage through the Prisma client: the fallback when the saver does not know
 * the database URL (a client not made by `createDb`) or the database is in memory, so it
 * cannot open its own connection. Slower (every read goes through the query engine), same
 * rows. Writes use raw INSERT … ON CONFLICT, valid on SQLite and PostgreSQL alike.
 */
export class PrismaCheckpointStore implements CheckpointStore {
  /** @param db a Prisma client whose schema has the Checkpoint, CheckpointBlob and CheckpointWrite models. */
  constructor(private readonly db: PrismaClient) {}

  private async withWrites(rows: CheckpointRow[]): Promise<StoredCheckpoint[]> {
    // One query for the pending writes of every row, not one per row.
    const writes = rows.length
      ? await this.db.checkpointWrite.findMany({
          where: {
            OR: rows.map((r) => ({ threadId: r.threadId, checkpointNs: r.checkpointNs, checkpointId: r.checkpointId })),
          },
          orderBy: WRITE_ORDER,
        })
      : [];
    const byKey = new Map<string, WriteRow[]>();
    for (const w of writes) {
      const key = JSON.stringify([w.threadId, w.checkpointNs, w.checkpointId]);
      byKey.set(key, [...(byKey.get(key) ?? []), w]);
    }
    return rows.map((row) => ({
      row,
      writes: byKey.get(JSON.stringify([row.threadId, row.checkpointNs, row.checkpointId])) ?? [],
      blobs: undefined,
    }));
  }

  async get(threadId: string, checkpointNs: string, checkpointId: string | undefined): Promise<StoredCheckpoint | undefined> {
    const row =
      checkpointId === undefined
        ? await this.db.checkpoint.findFirst({ where: { threadId, checkpointNs }, orderBy: { checkpointId: "desc" } })
        : await this.db.checkpoint.findUnique({
            where: { threadId_checkpointNs_checkpointId: { threadId, checkpointNs, checkpointId } },
          });
    if (!row) return undefined;
    return (await this.withWrites([row]))[0];
  }

  async list(query: ListQuery): Promise<StoredCheckpoint[]> {
    const filter = query.filter ?? {};
    const filtered = Object.keys(filter).length > 0;
    const rows = await this.db.checkpoint.findMany({
      where: {
        ...(query.threadId !== undefined ? { threadId: query.threadId } : {}),
        ...(query.checkpointNs !== undefined ? { checkpointNs: query.checkpointNs } : {}),
        ...(query.before !== undefined ? { checkpointId: { lt: query.before } } : {}),
      },
      orderBy: { checkpointId: "desc" },
      ...(query.limit !== undefined && !filtered ? { take: query.limit } : {}),
    });
    const selected = filtered ? rows.filter((r) => matches(r, filter)).slice(0, query.limit) : rows;
    return this.withWrites(selected);
  }

  async blobs(threadId: string, checkpointNs: string, versions: Record<string, string>): Promise<BlobRow[]> {
    const entries = Object.entries(versions);
    if (entries.length === 0) return [];
    return this.db.checkpointBlob.findMany({
      where: { threadId, checkpointNs, OR: entries.map(([channel, version]) => ({ channel, version })) },
    });
  }

  async writesTo(key: CheckpointKey, channel: string): Promise<WriteRow[]> {
    return this.db.checkpointWrite.findMany({ where: { ...key, channel }, orderBy: WRITE_ORDER });
  }

  async put(row: CheckpointRow, blobs: BlobRow[], threadId: string, checkpointNs: string): Promise<void> {
    // Plain INSERT ... ON CONFLICT: Prisma's upsert reads the stored row back, which for
    // large channel values costs as much as writing it.
    await this.db.$transaction([
      ...blobs.map(
        (b) => this.db.$executeRaw`INSERT INTO "CheckpointBlob" ("threadId", "checkpointNs", "channel", "version", "type", "value")
          VALUES (${threadId}, ${checkpointNs}, ${b.channel}, ${b.version}, ${b.type}, ${bytesOf(b.value)})
          ON CONFLICT ("threadId", "checkpointNs", "channel", "version") DO UPDATE SET "type" = excluded."type", "value" = excluded."value"`,
      ),
      this.db.$executeRaw`INSERT INTO "Checkpoint" ("threadId", "checkpointNs", "checkpointId", "parentCheckpointId", "type", "checkpoint", "metadataType", "metadata", "metadataJson")
        VALUES (${row.threadId}, ${row.checkpointNs}, ${row.checkpointId}, ${row.parentCheckpointId}, ${row.type}, ${bytesOf(row.checkpoint)}, ${row.metadataType}, ${bytesOf(row.metadata)}, ${row.metadataJson})
        ON CONFLICT ("threadId", "checkpointNs", "checkpointId") DO UPDATE SET "parentCheckpointId" = excluded."parentCheckpointId", "type" = excluded."type",
          "checkpoint" = excluded."checkpoint", "metadataType" = excluded."metadataType", "metadata" = excluded."metadata", "metadataJson" = excluded."metadataJson"`,
    ]);
  }

  async putWrites(rows: WriteRow[], replace: boolean): Promise<void> {
    await this.db.$transaction(
      rows.map((r) =>
        replace
          ? this.db.$executeRaw`INSERT INTO "CheckpointWrite" ("threadId", "checkpointNs", "checkpointId", "taskId", "idx", "channel", "type", "value")
              VALUES (${r.threadId}, ${r.checkpointNs}, ${r.checkpointId}, ${r.taskId}, ${r.idx}, ${r.channel}, ${r.type}, ${bytesOf(r.value)})
              ON CONFLICT ("threadId", "checkpointNs", "checkpointId", "taskId", "idx") DO UPDATE SET "channel" = excluded."channel", "type" = excluded."type", "value" = excluded."value"`
          : this.db.$executeRaw`INSERT INTO "CheckpointWrite" ("threadId", "checkpointNs", "checkpointId", "taskId", "idx", "channel", "type", "value")
              VALUES (${r.threadId}, ${r.checkpointNs}, ${r.checkpointId}, ${r.taskId}, ${r.idx}, ${r.channel}, ${r.type}, ${bytesOf(r.value)})
              ON CONFLICT ("threadId", "checkpointNs", "checkpointId", "taskId", "idx") DO NOTHING`,
      ),
    );
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.db.$transaction([
      this.db.checkpoint.deleteMany({ where: { threadId } }),
      this.db.checkpointWrite.deleteMany({ where: { threadId } }),
      this.db.checkpointBlob.deleteMany({ where: { threadId } }),
    ]);
  }

  /** The Prisma client belongs to the caller; nothing to release. */
  async close(): Promise<void> {}
}
