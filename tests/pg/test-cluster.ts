import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/** A PostgreSQL server for integration tests. */
export interface TestPostgres {
  /** `postgresql://` URL of a database the test may use. */
  url: string;
  /** Stops the cluster this helper started (nothing for one given by TEST_POSTGRES_URL). */
  stop(): Promise<void>;
}

/** The directory holding initdb and pg_ctl: on PATH, else Debian's /usr/lib/postgresql/<n>/bin. */
function pgBin(): string | null {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) if (dir && existsSync(path.join(dir, "initdb"))) return dir;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) if (existsSync(path.join(root, v, "bin", "initdb"))) return path.join(root, v, "bin");
  return null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === "object" && addr ? resolve(addr.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * The PostgreSQL server of a test: TEST_POSTGRES_URL when set, else a throwaway cluster in a
 * temp directory on a free loopback port (trust auth; run as user postgres when the tests
 * run as root, since PostgreSQL refuses root), stopped and removed by `stop()`.
 * @throws Error when neither TEST_POSTGRES_URL nor the PostgreSQL binaries are there.
 */
export async function testPostgres(): Promise<TestPostgres> {
  const given = process.env.TEST_POSTGRES_URL;
  if (given) return { url: given, stop: async () => undefined };
  const bin = pgBin();
  if (!bin) throw new Error("PostgreSQL tests need TEST_POSTGRES_URL or the PostgreSQL server binaries (initdb, pg_ctl; apt-get install postgresql).");
  const dir = mkdtempSync(path.join(tmpdir(), "phylactery-pg-"));
  const data = path.join(dir, "data");
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    const full = [path.join(bin, cmd), ...args];
    if (asRoot) execFileSync("su", ["postgres", "-c", full.map((a) => `'${a}'`).join(" ")], { stdio: "pipe" });
    else execFileSync(full[0] as string, args, { stdio: "pipe" });
  };
  if (asRoot) {
    chmodSync(dir, 0o777);
    execFileSync("chown", ["postgres", dir]);
  }
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]);
  run("pg_ctl", ["-D", data, "-o", `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir}`, "-l", path.join(dir, "log"), "-w", "start"]);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
