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
import { LatestCheckpointCache } from "./checkpointer-cache";
import { PrismaCheckpointStore } from "./checkpointer-prisma";
import type { BlobRow, CheckpointRow, CheckpointStore, StoredCheckpoint, WriteRow } from "./checkpointer-store";
import { checkpointStoreFor } from "./checkpointer-stores";
import { INLINE_MAX_BYTES, jsonBudgetLeft, sqlJsonBytesSafe } from "./checkpointer-inline";
import { dbUrlOf } from "./db-url";

/** Options of {@link PrismaCheckpointSaver}. */
export interface PrismaCheckpointSaverOptions {
  /**
   * The database URL (`file:` SQLite or `postgresql://`); defaults to the URL `createDb`
   * recorded for the client (lib/db/db-url.ts). With a URL the saver reads and writes
   * through its own driver connection; without one, or with `null`, through the Prisma
   * client (slower).
   */
  url?: string | null;
  /**
   * Keep each thread's latest checkpoint in memory and answer `getTuple` for it without
   * the database. Only when no one else writes the thread's checkpoints while this saver
   * is in use: a saver made for one run that holds the thread's lease
   * (docs/durability.md). Off by default.
   */
  cacheLatest?: boolean;
  /** Serializer of checkpoints, metadata and values; LangGraph's JSON serializer by default. */
  serde?: SerializerProtocol;
}

export { INLINE_MAX_BYTES } from "./checkpointer-inline";

/**
 * Key of the stored checkpoint (never of the checkpoint the saver returns) listing the
 * channels whose value is a blob; the others with a version are inline or empty. A row
 * without it was written before values were inlined: every value is a blob.
 */
const BLOB_CHANNELS = "blob_channels";

/** A checkpoint as serialized into the row: its inline values, and which channels are blobs. */
type StoredCheckpointObject = Omit<Checkpoint, "channel_values"> & {
  channel_values: Record<string, unknown>;
  [BLOB_CHANNELS]?: string[];
};

/** Where a stored checkpoint's values are: channel -> version, inline or as blobs. */
interface KnownCheckpoint {
  checkpointId: string;
  inline: Record<string, string>;
  blobs: Record<string, string>;
}

/** Checkpoints a saver remembers (one per thread and namespace, the least recent dropped first). */
const KNOWN_CHECKPOINTS_MAX = 256;

/** Rows of the first page `list` reads within one thread and namespace; each next page doubles, up to {@link LAST_LIST_PAGE}. */
export const FIRST_LIST_PAGE = 4;
/** A `list` limit up to which the checkpoints are read at once, not in pages, rows. */
export const ONE_READ_LIMIT = 32;
/** The largest page `list` reads at once, rows. */
export const LAST_LIST_PAGE = 256;

/** Where the values of a stored checkpoint object are; a row without a blob list has every value in blobs. */
function knownOf(checkpointId: string, stored: StoredCheckpointObject): KnownCheckpoint {
  const versions = versionStrings(stored.channel_versions);
  const list = stored[BLOB_CHANNELS];
  const inline: Record<string, string> = {};
  const blobs: Record<string, string> = {};
  for (const [channel, version] of Object.entries(versions)) {
    if (Array.isArray(list) && Object.hasOwn(stored.channel_values ?? {}, channel)) inline[channel] = version;
    else if (!Array.isArray(list) || list.includes(channel)) blobs[channel] = version;
  }
  return { checkpointId, inline, blobs };
}

/** A JSON copy of the metadata for SQL filters ("{}" when it cannot be written as JSON). */
function metadataJsonOf(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "{}";
  } catch {
    return "{}";
  }
}

/** Channel versions as stored (strings), channel -> version. */
function versionStrings(versions: ChannelVersions | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [channel, version] of Object.entries(versions ?? {})) out[channel] = String(version);
  return out;
}

/**
 * Keeps one write per (task, idx), as the database would after inserting them in order:
 * the last when `replace`, else the first.
 */
function dedupe(rows: WriteRow[], replace: boolean): WriteRow[] {
  const byKey = new Map<string, WriteRow>();
  for (const r of rows) {
    const key = `${r.taskId}\u0000${r.idx}`;
    if (replace || !byKey.has(key)) byKey.set(key, r);
  }
  return byKey.size === rows.length ? rows : [...byKey.values()];
}

/**
 * LangGraph checkpointer over the Prisma models Checkpoint, CheckpointBlob and
 * CheckpointWrite (SPEC.md 5), on SQLite or PostgreSQL. A checkpoint row carries its small
 * channel values inline (up to {@link INLINE_MAX_BYTES} each, docs/storage.md "Inline
 * values"), so most puts are one row and most reads one statement, as in SqliteSaver; each
 * larger value is one CheckpointBlob row per version (LangGraph `newVersions`), written once
 * and shared by the checkpoints that name it, as in the official PostgresSaver. Everything is
 * serialized with the saver's serde (`dumpsTyped` / `loadsTyped`). The hot path talks to the
 * driver directly (lib/db/checkpointer-sqlite.ts, lib/db/checkpointer-pg.ts); other code reads
 * the same tables through Prisma. Checked by the official conformance suite
 * (@langchain/langgraph-checkpoint-validation) on both databases, with and without the
 * cache, and measured against the official savers by `npm run bench:checkpointer`.
 */
export class PrismaCheckpointSaver extends BaseCheckpointSaver {
  private readonly db: PrismaClient;
  private readonly url: string | undefined;
  private readonly cache: LatestCheckpointCache | undefined;
  private fallback: PrismaCheckpointStore | undefined;
  /** Where the values of the checkpoint this saver last wrote or read are, per thread and namespace. */
  private readonly known = new Map<string, KnownCheckpoint>();

  /**
   * @param db a Prisma client whose schema has the checkpoint models; used for the database
   *   URL, and for storage when the URL is unknown or names an in-memory database.
   */
  constructor(db: PrismaClient, options: PrismaCheckpointSaverOptions = {}) {
    super(options.serde);
    this.db = db;
    this.url = options.url === null ? undefined : (options.url ?? dbUrlOf(db));
    this.cache = options.cacheLatest ? new LatestCheckpointCache() : undefined;
  }

  /** The storage, looked up per call: a closed shared store reopens on next use. */
  private store(): CheckpointStore {
    const store = this.url === undefined ? undefined : checkpointStoreFor(this.url);
    if (store) return store;
    this.fallback ??= new PrismaCheckpointStore(this.db);
    return this.fallback;
  }

  /**
   * The checkpoint named by `config.configurable.checkpoint_id`, or the latest of the
   * thread and namespace when no id is given; `undefined` when there is none.
   */
  async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const { thread_id, checkpoint_ns = "", checkpoint_id } = config.configurable ?? {};
    if (thread_id === undefined) return undefined;
    const threadId = String(thread_id);
    const checkpointId: string | undefined = checkpoint_id || undefined;
    const cached = this.cache?.get(threadId, checkpoint_ns, checkpointId);
    if (cached === "none") return undefined;
    if (cached) return (await this.toTuple(cached)).tuple;
    const generation = this.cache?.generation(threadId, checkpoint_ns) ?? 0;
    const stored = await this.store().get(threadId, checkpoint_ns, checkpointId);
    if (!stored) {
      if (checkpointId === undefined) this.cache?.remember(threadId, checkpoint_ns, generation, undefined);
      return undefined;
    }
    const { tuple, blobs } = await this.toTuple(stored);
    // Only a read of the latest says what the latest is; a read by id tells nothing.
    if (checkpointId === undefined) this.cache?.remember(threadId, checkpoint_ns, generation, { ...stored, blobs });
    return tuple;
  }

  /**
   * Checkpoints matching `config` (thread, and namespace when given), newest first,
   * optionally before `options.before`'s checkpoint id, whose metadata equals every
   * defined key of `options.filter` (filtered in SQL), at most `options.limit`.
   */
  async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    const { limit, before, filter } = options ?? {};
    const threadId = config.configurable?.thread_id;
    const ns = config.configurable?.checkpoint_ns;
    const beforeId = before?.configurable?.checkpoint_id;
    const wanted = Object.fromEntries(Object.entries(filter ?? {}).filter(([, v]) => v !== undefined));
    const most = limit ? Number.parseInt(String(limit), 10) : Number.POSITIVE_INFINITY;
    // Within one thread and namespace (what LangGraph's getStateHistory asks for), with no
    // limit or a large one, read in pages, newest first, each twice the last: a caller that stops after the newest few (a
    // run stream reading what a run just wrote) reads a few rows, not the thread's whole
    // history with its pending writes. Ids are unique there, so the last id read is the
    // cursor; across threads or namespaces ids may repeat, so that is one read.
    const paged = threadId !== undefined && ns !== undefined;
    let cursor: string | undefined = beforeId ?? undefined;
    // A caller that asks for a few (a page of time travel) gets them in one read.
    let page = paged && most > ONE_READ_LIMIT ? FIRST_LIST_PAGE : most;
    let yielded = 0;
    while (yielded < most) {
      const take = Math.min(page, most - yielded);
      const rows = await this.store().list({
        threadId: threadId ? String(threadId) : undefined,
        checkpointNs: ns ?? undefined,
        before: cursor,
        limit: Number.isFinite(take) ? take : undefined,
        filter: Object.keys(wanted).length ? wanted : undefined,
      });
      for (const stored of rows) {
        yield (await this.toTuple(stored, false)).tuple;
        yielded += 1;
      }
      const last = rows.at(-1);
      if (!paged || rows.length < take || !last) return;
      cursor = last.row.checkpointId;
      page = Math.min(page * 2, LAST_LIST_PAGE);
    }
  }

  /**
   * Stores a checkpoint (insert or replace) as a child of `config`'s checkpoint id: its small
   * values in the row, a blob per large value of `newVersions` (all of
   * `checkpoint.channel_versions` if absent), atomically (one statement, or one transaction
   * with the blobs). Reads the parent's row once when this saver has not just written or read
   * it, to know which unchanged values it holds inline.
   * @returns the config naming the stored checkpoint.
   * @throws Error when `config.configurable.thread_id` is missing.
   */
  async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions?: ChannelVersions): Promise<RunnableConfig> {
    if (!config.configurable) throw new Error("Empty configuration supplied.");
    const threadId = config.configurable.thread_id;
    const checkpointNs: string = config.configurable.checkpoint_ns ?? "";
    const parentCheckpointId: string | undefined = config.configurable.checkpoint_id;
    if (!threadId) throw new Error(`Missing "thread_id" field in passed "config.configurable".`);
    const { channel_values: values, ...rest } = copyCheckpoint(checkpoint);
    const changed = newVersions ?? checkpoint.channel_versions;
    const parent = parentCheckpointId ? await this.knownCheckpoint(String(threadId), checkpointNs, parentCheckpointId) : undefined;
    const { inline, blobs, blobChannels, inlineVersions, blobVersions } = await this.splitValues(values, checkpoint.channel_versions, changed, parent);
    const stored: StoredCheckpointObject = { ...rest, channel_values: inline, [BLOB_CHANNELS]: blobChannels };
    const [[type, serialized], [metadataType, serializedMetadata]] = await Promise.all([this.serde.dumpsTyped(stored), this.serde.dumpsTyped(metadata)]);
    const row: CheckpointRow = {
      threadId: String(threadId),
      checkpointNs,
      checkpointId: checkpoint.id,
      parentCheckpointId: parentCheckpointId ?? null,
      type,
      checkpoint: serialized,
      metadataType,
      metadata: serializedMetadata,
      metadataJson: metadataJsonOf(metadata),
    };
    await this.store().put(row, blobs, row.threadId, checkpointNs);
    this.remember(row.threadId, checkpointNs, { checkpointId: checkpoint.id, inline: inlineVersions, blobs: blobVersions });
    this.cache?.afterPut(row, blobs, blobVersions);
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
    const replace = writes.every(([channel]) => channel in WRITES_IDX_MAP);
    const rows = await Promise.all(
      writes.map(async ([channel, value], idx): Promise<WriteRow> => {
        const [type, serialized] = await this.serde.dumpsTyped(value);
        return {
          threadId: String(threadId),
          checkpointNs,
          checkpointId: String(checkpointId),
          taskId,
          idx: WRITES_IDX_MAP[channel] ?? idx,
          channel,
          type,
          value: serialized,
        };
      }),
    );
    const unique = dedupe(rows, replace);
    await this.store().putWrites(unique, replace);
    this.cache?.afterWrites(unique, replace);
  }

  /**
   * Splits a checkpoint's channel values (those with a version) into inline values and blob
   * channels, keeping LangGraph's rule that a checkpoint stores only the values of `changed`
   * (the others were stored by the checkpoint that changed them, and are read from there):
   * - a changed value is inline when the serde writes it as "json" within
   *   {@link INLINE_MAX_BYTES}, else a blob row of its version;
   * - an unchanged value is inline when it is inline at the same version in the parent
   *   (`parent`, copied forward so that a read needs no other row), else a blob channel (its
   *   blob, if any was ever written, is the version's).
   */
  private async splitValues(
    values: Record<string, unknown>,
    versions: ChannelVersions,
    changed: ChannelVersions,
    parent: KnownCheckpoint | undefined,
  ): Promise<{
    inline: Record<string, unknown>;
    blobs: BlobRow[];
    blobChannels: string[];
    /** channel -> version of the inline values */
    inlineVersions: Record<string, string>;
    /** channel -> version of the blob channels */
    blobVersions: Record<string, string>;
  }> {
    const inline: Record<string, unknown> = {};
    const blobs: BlobRow[] = [];
    const blobChannels: string[] = [];
    const inlineVersions: Record<string, string> = {};
    const blobVersions: Record<string, string> = {};
    await Promise.all(
      Object.keys(versions).map(async (channel) => {
        const version = String(versions[channel]);
        const has = Object.hasOwn(values, channel);
        if (!Object.hasOwn(changed, channel)) {
          if (has && parent?.inline[channel] === version) inline[channel] = values[channel];
          else blobChannels.push(channel);
          return;
        }
        // Changed but without a value (an emptied channel): nothing to store, nothing to read.
        if (!has) return;
        if (jsonBudgetLeft(values[channel], INLINE_MAX_BYTES) >= 0) {
          inline[channel] = values[channel];
          return;
        }
        const [type, bytes] = await this.serde.dumpsTyped(values[channel]);
        if (type === "json" && bytes.byteLength <= INLINE_MAX_BYTES && sqlJsonBytesSafe(bytes)) inline[channel] = values[channel];
        else {
          blobChannels.push(channel);
          blobs.push({ channel, version, type, value: bytes });
        }
      }),
    );
    for (const c of Object.keys(inline)) inlineVersions[c] = String(versions[c]);
    for (const c of blobChannels) blobVersions[c] = String(versions[c]);
    return { inline, blobs, blobChannels, inlineVersions, blobVersions };
  }

  /** Records where a checkpoint's values are, as the latest this saver knows of its thread and namespace. */
  private remember(threadId: string, checkpointNs: string, known: KnownCheckpoint): void {
    const key = `${threadId}\u0000${checkpointNs}`;
    this.known.delete(key);
    this.known.set(key, known);
    if (this.known.size > KNOWN_CHECKPOINTS_MAX) {
      const oldest = this.known.keys().next().value;
      if (oldest !== undefined) this.known.delete(oldest);
    }
  }

  /**
   * Where the values of checkpoint `checkpointId` are: from what this saver last wrote or read
   * of the thread, else from the stored row (its channel versions and blob list only, no
   * values decoded); `undefined` when there is no such checkpoint.
   */
  private async knownCheckpoint(threadId: string, checkpointNs: string, checkpointId: string): Promise<KnownCheckpoint | undefined> {
    const hit = this.known.get(`${threadId}\u0000${checkpointNs}`);
    if (hit?.checkpointId === checkpointId) return hit;
    const stored = await this.store().get(threadId, checkpointNs, checkpointId);
    if (!stored) return undefined;
    const { row } = stored;
    const parsed = (
      row.type === "json" ? JSON.parse(typeof row.checkpoint === "string" ? row.checkpoint : new TextDecoder().decode(row.checkpoint)) : await this.serde.loadsTyped(row.type, row.checkpoint)
    ) as StoredCheckpointObject;
    return knownOf(checkpointId, parsed);
  }

  /** Deletes every checkpoint, blob and pending write of a thread. */
  async deleteThread(threadId: string): Promise<void> {
    await this.store().deleteThread(threadId);
    this.cache?.forgetThread(threadId);
  }

  /**
   * Deserializes a stored checkpoint; reads its blobs when the store did not.
   * @param remember record where its values are, for a put that names it as parent (a
   *   getTuple; a list would only churn the record).
   * @returns the tuple and the blob rows it was built from.
   */
  private async toTuple(stored: StoredCheckpoint, remember = true): Promise<{ tuple: CheckpointTuple; blobs: BlobRow[] }> {
    const { row } = stored;
    const [loaded, metadata, pendingWrites] = await Promise.all([
      this.serde.loadsTyped(row.type, row.checkpoint) as Promise<StoredCheckpointObject>,
      this.serde.loadsTyped(row.metadataType, row.metadata) as Promise<CheckpointMetadata>,
      stored.writes.length === 0 ? [] : Promise.all(stored.writes.map(async (w) => [w.taskId, w.channel, await this.serde.loadsTyped(w.type, w.value)] as CheckpointPendingWrite)),
    ]);
    const versions = versionStrings(loaded.channel_versions);
    if (remember) this.remember(row.threadId, row.checkpointNs, knownOf(row.checkpointId, loaded));
    const blobChannels = loaded[BLOB_CHANNELS];
    delete loaded[BLOB_CHANNELS];
    const checkpoint = loaded as Checkpoint;
    // The blob versions this checkpoint names: those of its blob channels, or, in a row written
    // before values were inlined (no list), every version.
    let wanted = versions;
    let values: Record<string, unknown> = {};
    if (Array.isArray(blobChannels)) {
      values = loaded.channel_values ?? {};
      wanted = {};
      for (const c of blobChannels) if (versions[c] !== undefined) wanted[c] = versions[c];
    }
    let blobs = (stored.blobs ?? []).filter((b) => wanted[b.channel] === b.version);
    // Versions the store's read did not bring (not JSON, or a version it could not match by
    // text) are read by name.
    const missing = Object.entries(wanted).filter(([c, v]) => !blobs.some((b) => b.channel === c && b.version === v));
    if (missing.length) {
      blobs = blobs.concat(await this.store().blobs(row.threadId, row.checkpointNs, Object.fromEntries(missing)));
    }
    if (blobs.length) {
      await Promise.all(
        blobs.map(async (blob) => {
          if (blob.type !== "empty" && wanted[blob.channel] === blob.version) {
            values[blob.channel] = await this.serde.loadsTyped(blob.type, blob.value);
          }
        }),
      );
    }
    checkpoint.channel_values = values;
    if (checkpoint.v < 4 && row.parentCheckpointId != null) await this.migratePendingSends(checkpoint, row);
    const base = { thread_id: row.threadId, checkpoint_ns: row.checkpointNs };
    const tuple: CheckpointTuple = {
      config: { configurable: { ...base, checkpoint_id: row.checkpointId } },
      checkpoint,
      metadata,
      parentConfig: row.parentCheckpointId ? { configurable: { ...base, checkpoint_id: row.parentCheckpointId } } : undefined,
      pendingWrites,
    };
    return { tuple, blobs };
  }

  /** Checkpoints older than format v4 kept sends as writes of the parent (as SqliteSaver). */
  private async migratePendingSends(checkpoint: Checkpoint, row: CheckpointRow): Promise<void> {
    const parent = { threadId: row.threadId, checkpointNs: row.checkpointNs, checkpointId: row.parentCheckpointId ?? "" };
    const sends = await this.store().writesTo(parent, TASKS);
    const mutable = checkpoint as Checkpoint & { channel_values: Record<string, unknown> };
    mutable.channel_values ??= {};
    mutable.channel_values[TASKS] = await Promise.all(sends.map((s) => this.serde.loadsTyped(s.type, s.value)));
    mutable.channel_versions[TASKS] = Object.keys(checkpoint.channel_versions).length > 0 ? maxChannelVersion(...Object.values(checkpoint.channel_versions)) : this.getNextVersion(undefined);
  }
}
