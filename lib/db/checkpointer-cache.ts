import type { BlobRow, CheckpointRow, Serialized, StoredCheckpoint, WriteRow } from "./checkpointer-store";

type Entry = { row: CheckpointRow; blobs: BlobRow[]; writes: WriteRow[] } | "none";

const keyOf = (threadId: string, checkpointNs: string) => `${threadId}\u0000${checkpointNs}`;

function byTaskThenIdx(a: WriteRow, b: WriteRow): number {
  if (a.taskId !== b.taskId) return a.taskId < b.taskId ? -1 : 1;
  return a.idx - b.idx;
}

const decoder = new TextDecoder();

/** A "json" value kept as text: strings are immutable (no copy per read) and need no decoding. */
const kept = (type: string, value: Serialized): Serialized => (type === "json" && typeof value !== "string" ? decoder.decode(value) : value);

/** A value the caller may keep or change without touching the cache. */
const fresh = (value: Serialized): Serialized => (typeof value === "string" ? value : value.slice());

/** A copy whose byte arrays the caller may keep or change without touching the cache. */
function copyOf(entry: Exclude<Entry, "none">): StoredCheckpoint {
  return {
    row: { ...entry.row, checkpoint: fresh(entry.row.checkpoint), metadata: fresh(entry.row.metadata) },
    writes: entry.writes.map((w) => ({ ...w, value: fresh(w.value) })),
    blobs: entry.blobs.map((b) => ({ ...b, value: fresh(b.value) })),
  };
}

/** The entry as kept: its own copies, "json" values as text. */
function keep(entry: Exclude<Entry, "none">): Exclude<Entry, "none"> {
  const { row } = entry;
  return {
    row: { ...row, checkpoint: kept(row.type, row.checkpoint), metadata: kept(row.metadataType, row.metadata) },
    writes: entry.writes.map((w) => ({ ...w, value: fresh(kept(w.type, w.value)) })),
    blobs: entry.blobs.map((b) => ({ ...b, value: fresh(kept(b.type, b.value)) })),
  };
}

/**
 * Write-through cache of each thread and namespace's latest checkpoint, as stored bytes
 * (the saver deserializes on every read, so callers never share objects). An entry is
 * created by a read of the latest checkpoint from the database ("none" when there was
 * none) and then follows this saver's own puts and writes; it is only right while no one
 * else writes the thread — the run lease (docs/durability.md) gives that guarantee, so a
 * saver made for one run under the lease may turn the cache on.
 *
 * Every change of a key bumps its generation, so a database read that started before a
 * put cannot replace the put's newer entry when it completes ({@link remember}).
 */
export class LatestCheckpointCache {
  private readonly entries = new Map<string, Entry>();
  private readonly generations = new Map<string, number>();

  private bump(key: string): void {
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
  }

  /** The key's generation, to pass back to {@link remember} after a database read. */
  generation(threadId: string, checkpointNs: string): number {
    return this.generations.get(keyOf(threadId, checkpointNs)) ?? 0;
  }

  /**
   * The latest checkpoint (or the one with `checkpointId` when it is the latest), copied;
   * `"none"` when the thread is known to have none; `undefined` when the cache cannot say.
   */
  get(threadId: string, checkpointNs: string, checkpointId: string | undefined): StoredCheckpoint | "none" | undefined {
    const entry = this.entries.get(keyOf(threadId, checkpointNs));
    if (entry === undefined) return undefined;
    if (entry === "none") return checkpointId === undefined ? "none" : undefined;
    if (checkpointId !== undefined && checkpointId !== entry.row.checkpointId) return undefined;
    return copyOf(entry);
  }

  /**
   * Records what a read of the latest checkpoint returned (`undefined`: none), unless the
   * key changed since `generation` was taken.
   * @param stored must carry its blobs (the saver loads them before calling).
   */
  remember(threadId: string, checkpointNs: string, generation: number, stored: StoredCheckpoint | undefined): void {
    const key = keyOf(threadId, checkpointNs);
    if ((this.generations.get(key) ?? 0) !== generation) return;
    if (!stored) {
      this.entries.set(key, "none");
      return;
    }
    if (!stored.blobs) return;
    this.entries.set(key, keep({ row: stored.row, writes: stored.writes, blobs: stored.blobs }));
  }

  /**
   * Follows a stored put: a checkpoint at or after the cached one becomes the entry, with
   * the blobs of its `versions` (channel -> version) taken from this put or the previous
   * entry; when one is in neither, the entry is dropped (the next read goes to the database).
   */
  afterPut(row: CheckpointRow, blobs: BlobRow[], versions: Record<string, string>): void {
    const key = keyOf(row.threadId, row.checkpointNs);
    const entry = this.entries.get(key);
    this.bump(key);
    if (entry === undefined) return;
    const previous = entry === "none" ? undefined : entry;
    if (previous) {
      // The put replaced any blob of the same channel version in the database: so here.
      previous.blobs = previous.blobs.map((b) => blobs.find((n) => n.channel === b.channel && n.version === b.version) ?? b);
      if (row.checkpointId < previous.row.checkpointId) return;
    }
    const wanted: BlobRow[] = [];
    for (const [channel, version] of Object.entries(versions)) {
      const found = blobs.find((b) => b.channel === channel && b.version === version) ?? previous?.blobs.find((b) => b.channel === channel && b.version === version);
      if (!found) {
        this.entries.delete(key);
        return;
      }
      wanted.push(found);
    }
    const writes = previous && previous.row.checkpointId === row.checkpointId ? previous.writes : [];
    this.entries.set(key, keep({ row, blobs: wanted, writes }));
  }

  /** Follows stored pending writes: same rule as the database (`replace`, else first kept). */
  afterWrites(rows: WriteRow[], replace: boolean): void {
    const first = rows[0];
    if (!first) return;
    const key = keyOf(first.threadId, first.checkpointNs);
    this.bump(key);
    const entry = this.entries.get(key);
    if (entry === undefined || entry === "none" || entry.row.checkpointId !== first.checkpointId) return;
    const writes = new Map(entry.writes.map((w) => [`${w.taskId}\u0000${w.idx}`, w]));
    for (const r of rows) {
      const k = `${r.taskId}\u0000${r.idx}`;
      if (replace || !writes.has(k)) writes.set(k, { ...r, value: kept(r.type, r.value) });
    }
    entry.writes = [...writes.values()].sort(byTaskThenIdx);
  }

  /** Forgets every namespace of a deleted thread. */
  forgetThread(threadId: string): void {
    const prefix = `${threadId}\u0000`;
    for (const key of [...this.entries.keys(), ...this.generations.keys()]) {
      if (key.startsWith(prefix)) {
        this.entries.delete(key);
        this.bump(key);
      }
    }
  }
}
