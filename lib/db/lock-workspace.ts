import type { Db } from "./client";

/** A transaction's client (what `db.$transaction(async (tx) => …)` hands over). */
type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/**
 * Takes the workspace row's write lock for the rest of the transaction, so that concurrent
 * transactions on the same workspace's members run one after the other. SQLite already runs
 * one writing transaction at a time; PostgreSQL (READ COMMITTED) would let two owners demoting
 * each other both count the other as still an owner. After the lock, the next statement sees
 * what the other transaction committed. A no-op update, portable SQL.
 */
export async function lockWorkspace(tx: Tx, workspaceId: string): Promise<void> {
  await tx.$executeRaw`UPDATE "Workspace" SET "id" = "id" WHERE "id" = ${workspaceId}`;
}
