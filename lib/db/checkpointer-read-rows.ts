import type { CheckpointRow, StoredCheckpoint } from "./checkpointer-store";

/**
 * One row of the single-statement read of checkpoints (PostgreSQL store): the
 * checkpoints, their pending writes and their channel blobs as rows of three kinds, each
 * with the rank `rn` of its checkpoint (newest first), ordered by rank, kind, then
 * (writes) task id and idx. Columns a-f and idx hold, by kind:
 * 0 checkpoint: a parentCheckpointId, b type, c metadataType, d checkpoint, e metadata, f metadataJson;
 * 1 write: a taskId, b channel, c type, d value, idx;
 * 2 blob: a channel, b type, c version, d value.
 */
export type ReadRow = {
  kind: number;
  threadId: string;
  checkpointNs: string;
  checkpointId: string;
  a: string | null;
  b: string;
  c: string | null;
  d: Buffer;
  e: Buffer | null;
  f: string | null;
  idx: number | null;
};

/**
 * Groups read rows into checkpoints, in the order of their rank. A checkpoint whose serde
 * type is not "json" gets `blobs: undefined` (the statement could not name its versions).
 */
export function groupReadRows(rows: ReadRow[]): StoredCheckpoint[] {
  const out: StoredCheckpoint[] = [];
  let current: StoredCheckpoint | undefined;
  for (const r of rows) {
    if (r.kind === 0) {
      const row: CheckpointRow = {
        threadId: r.threadId,
        checkpointNs: r.checkpointNs,
        checkpointId: r.checkpointId,
        parentCheckpointId: r.a,
        type: r.b,
        checkpoint: r.d,
        metadataType: r.c ?? "json",
        metadata: r.e ?? Buffer.alloc(0),
        metadataJson: r.f ?? "{}",
      };
      current = { row, writes: [], blobs: row.type === "json" ? [] : undefined };
      out.push(current);
    } else if (r.kind === 1 && current) {
      current.writes.push({
        threadId: r.threadId,
        checkpointNs: r.checkpointNs,
        checkpointId: r.checkpointId,
        taskId: r.a ?? "",
        idx: r.idx ?? 0,
        channel: r.b,
        type: r.c ?? "json",
        value: r.d,
      });
    } else if (r.kind === 2 && current) {
      current.blobs?.push({ channel: r.a ?? "", type: r.b, version: r.c ?? "", value: r.d });
    }
  }
  return out;
}
