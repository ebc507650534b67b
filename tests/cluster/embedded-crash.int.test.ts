import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../lib/db/client";
import { type Client, signIn } from "../http/client";
import { type Cluster, startCluster } from "./cluster";
import { crashLoop, crashSummary } from "./crash-loop";
import { type CountingServer, checkInvariants, countingServer, createPostingFlow, driveRun } from "./side-effects";

/**
 * Durability of the embedded default (docs/durability.md): one `next start` on a SQLite file
 * executing its runs in process (RUN_WORKERS=4), SIGKILLed at random moments and started
 * again, as a supervisor would. The restarted process's worker finds the lapsed leases of
 * the runs its previous life held and continues them from their last checkpoint.
 *
 * Runs only on the SQLite pass: the embedded default is a SQLite file; the PostgreSQL pass
 * covers crashes of a cluster's workers in cluster.int.test.ts.
 */
const pg = Boolean(process.env.TEST_DATABASE_URL);
/** SIGKILLs to deliver (CRASH_KILLS; 10 by default, 50 to measure how often a person is asked). */
const KILLS = Number(process.env.CRASH_KILLS ?? 10);

describe.runIf(!pg)("the embedded default (one process, SQLite) killed at random moments", () => {
  let c: Cluster;
  let db: Db;
  let counter: CountingServer;
  let alice: Client;
  let flowId: string;

  beforeAll(async () => {
    counter = await countingServer(400);
    c = await startCluster({
      webs: 1,
      workers: 0,
      database: "sqlite",
      webRunWorkers: 4,
      // A short lease, so the restarted process recovers its previous life's runs within seconds.
      env: { OUTBOUND_ALLOW_PRIVATE: `127.0.0.1:${counter.port}`, RUN_LEASE_TTL_MS: "2000" },
    });
    const [a] = c.users;
    const web = c.webs[0];
    if (!a || !web?.url) throw new Error("fixture missing");
    alice = await signIn(web.url, a.email, a.password);
    flowId = await createPostingFlow(c.dbUrl, a.id, counter.port);
    db = createDb(c.dbUrl);
  }, 120_000);

  afterAll(async () => {
    await db?.$disconnect();
    await c?.stop();
    await counter?.close();
  });

  it(
    `${KILLS} kills: every run completes or asks a person, no doubled side effect or step, none stuck`,
    async () => {
      const web = c.webs[0];
      if (!web) throw new Error("no web");
      const result = await crashLoop({ kills: KILLS, victims: [web], gapMs: [500, 2500], drivers: 3, drive: (n) => driveRun(db, [alice], flowId, counter.port, `embedded-${n}`, 60_000) });
      const inv = await checkInvariants(db, counter.hits);
      console.info(crashSummary("embedded (SQLite, one process)", result, inv.doubledSideEffects.length, inv.doubledSteps.length));
      expect(result.errors, web.output().slice(-3000)).toEqual([]);
      expect(result.kills).toBe(KILLS);
      expect(result.runs.length).toBeGreaterThan(3);
      expect(inv.doubledSideEffects).toEqual([]);
      expect(inv.doubledSteps).toEqual([]);
      expect(result.runs.filter((r) => r.stuck)).toEqual([]);
      expect(result.runs.filter((r) => r.status !== "completed" && !r.askedPerson)).toEqual([]);
      expect(inv.leftovers).toEqual([]);
      for (const r of result.runs.filter((x) => x.status === "completed")) expect(counter.hits.get(r.tag), r.tag).toBe(1);
    },
    240_000 + KILLS * 10_000,
  );
});
