import type { AccessSql } from "./access-sql";
import type { RunEventsSql } from "./run-events-sql";
import type { RunJobsSql } from "./run-jobs-sql";
import type { RunWritesSql } from "./run-writes-sql";
/**
 * What the checkpointer needs from a database: rows of the Prisma models Checkpoint,
 * CheckpointBlob and CheckpointWrite, as stored (serialized bytes plus their serde type).
 * One implementation per driver (better-sqlite3, pg) and one through Prisma; the saver
 * (lib/db/checkpointer.ts) does every (de)serialization itself, so all of them store the
 * same bytes and other code keeps reading the tables through Prisma.
 */

/** The key of a checkpoint: thread, namespace ("" for the root graph), checkpoint id. */
export interface CheckpointKey {
  threadId: string;
  checkpointNs: string;
  checkpointId: string;
}

/**
 * Serialized bytes as stored; a store may read a "json" value as its text instead (the
 * serde's `loadsTyped` takes either), which spares a Buffer and a UTF-8 decode per value.
 */
export type Serialized = Uint8Array | string;

/** The bytes of a serialized value, as a Buffer sharing its memory when it is already bytes. */
export function bytesOf(value: Serialized): Buffer {
  return typeof value === "string" ? Buffer.from(value, "utf8") : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** A `Checkpoint` row: the checkpoint without its channel values, and its metadata. */
export interface CheckpointRow extends CheckpointKey {
  parentCheckpointId: string | null;
  /** serde type of `checkpoint` ("json" with the default serializer). */
  type: string;
  checkpoint: Serialized;
  metadataType: string;
  metadata: Serialized;
  /** JSON text of the metadata ("{}" when it cannot be written as JSON). */
  metadataJson: string;
}

/** A `CheckpointBlob` row: one channel's value at one version ("empty": no value). */
export interface BlobRow {
  channel: string;
  version: string;
  type: string;
  value: Serialized;
}

/** A `CheckpointWrite` row: one pending write of a task, `idx` its position (or special index). */
export interface WriteRow extends CheckpointKey {
  taskId: string;
  idx: number;
  channel: string;
  type: string;
  value: Serialized;
}

/**
 * A checkpoint as read: its row, its pending writes ordered by task id then idx, and the
 * blobs of the channel versions its `channel_versions` names — `undefined` when the store
 * could not find them in the same read (checkpoint not serialized as JSON): the saver then
 * asks {@link CheckpointStore.blobs}.
 */
export interface StoredCheckpoint {
  row: CheckpointRow;
  writes: WriteRow[];
  blobs: BlobRow[] | undefined;
}

/** Which checkpoints `list` reads: each defined field narrows; newest id first. */
export interface ListQuery {
  threadId?: string;
  checkpointNs?: string;
  /** only ids lower than this one */
  before?: string;
  /** at most this many rows */
  limit?: number;
  /**
   * Metadata keys and the values they must equal; equality is that of the JSON texts
   * (JSON.stringify of the wanted value against the stored `metadataJson` value).
   */
  filter?: Record<string, unknown>;
}

/** Storage of checkpoints in the three Prisma tables; every method may throw the driver's error. */
export interface CheckpointStore {
  /** The checkpoint with this key, or the thread and namespace's newest when `checkpointId` is undefined. */
  get(threadId: string, checkpointNs: string, checkpointId: string | undefined): Promise<StoredCheckpoint | undefined>;
  /** Checkpoints matching `query`, newest id first. */
  list(query: ListQuery): Promise<StoredCheckpoint[]>;
  /** Blob rows of these channel versions (channel -> version) of a thread and namespace. */
  blobs(threadId: string, checkpointNs: string, versions: Record<string, string>): Promise<BlobRow[]>;
  /** Pending writes to channel `channel` of one checkpoint, ordered by task id then idx. */
  writesTo(key: CheckpointKey, channel: string): Promise<WriteRow[]>;
  /** Inserts or replaces the blobs and the checkpoint row, in one transaction. */
  put(row: CheckpointRow, blobs: BlobRow[], threadId: string, checkpointNs: string): Promise<void>;
  /** Inserts writes in one transaction: `replace` overwrites a same-key row, otherwise keeps it. */
  putWrites(rows: WriteRow[], replace: boolean): Promise<void>;
  /** Deletes every checkpoint, blob and write of a thread, in one transaction. */
  deleteThread(threadId: string): Promise<void>;
  /** The run events' statements on the same connection(s), when the store is the driver's (lib/db/run-events-sql.ts). */
  runEvents?(): RunEventsSql;
  /** The run path's reads on the same connection(s), when the store is the driver's (lib/db/access-sql.ts). */
  access?(): AccessSql;
  /** A worker's job read and claim on the same connection(s), when the store is the driver's (lib/db/run-jobs-sql.ts). */
  runJobs?(): RunJobsSql;
  /** A tool call's intent and outcome writes on the same connection(s), when the store is the driver's (lib/db/run-writes-sql.ts). */
  runWrites?(): RunWritesSql;
  /** Releases the connection(s); the store must not be used afterwards. */
  close(): Promise<void>;
}
