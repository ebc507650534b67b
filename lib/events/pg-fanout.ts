import pg from "pg";
import { logger } from "../log";
import { checkChannel, deliver, encodeNotification, type Fanout, type FanoutHandler, type Unlisten, unlistenOf } from "./fanout";

const log = logger.child({ module: "pg-fanout" });

/** Options of {@link PgFanout}. */
export interface PgFanoutOptions {
  /** A `postgresql://` (or `postgres://`) URL. */
  connectionString: string;
  /** First wait before reconnecting after the connection is lost, in ms (doubles up to `maxRetryMs`). */
  retryMs?: number;
  /** Longest wait between two reconnect attempts, in ms. */
  maxRetryMs?: number;
  /** How long `notify` waits for a connection before giving up (logged), in ms. */
  notifyTimeoutMs?: number;
  /** `application_name` of the connection (seen in pg_stat_activity). */
  applicationName?: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * The fan-out on PostgreSQL (docs/architecture.md#live-streams): LISTEN/NOTIFY through
 * ONE dedicated connection per process (a pooled connection would drop its LISTENs when
 * handed back). It connects on first use, LISTENs once per channel however many handlers
 * listen in the process, and when the connection is lost reconnects with a growing delay
 * and LISTENs again on every channel. Notifications sent while it was away are lost;
 * listeners re-read the database and poll, so they catch up (see lib/events/fanout.ts).
 * `notify` goes out on the same connection (`SELECT pg_notify($1, $2)`).
 */
export class PgFanout implements Fanout {
  private readonly opts: Required<PgFanoutOptions>;
  private readonly channels = new Map<string, Set<FanoutHandler>>();
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private closed = false;

  constructor(opts: PgFanoutOptions) {
    this.opts = { retryMs: 250, maxRetryMs: 5_000, notifyTimeoutMs: 5_000, applicationName: "phylactery-fanout", ...opts };
  }

  async notify(channel: string, payload: unknown): Promise<void> {
    const text = encodeNotification(channel, payload);
    if (this.closed) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no connection within ${this.opts.notifyTimeoutMs} ms`)), this.opts.notifyTimeoutMs);
      });
      const client = await Promise.race([this.connection(), timeout]);
      await client.query("SELECT pg_notify($1, $2)", [channel, text]);
    } catch (err) {
      log.warn({ err, channel }, "fanout: a notification was not sent (listeners catch up by polling)");
    } finally {
      clearTimeout(timer);
    }
  }

  listen(channel: string, handler: FanoutHandler): Unlisten {
    checkChannel(channel);
    const h: FanoutHandler = (p) => handler(p);
    let set = this.channels.get(channel);
    const first = !set;
    if (!set) {
      set = new Set();
      this.channels.set(channel, set);
    }
    set.add(h);
    const ready = first ? this.listenOn(channel) : this.connection().then(() => undefined);
    // Readiness is for callers that want it (tests); nobody has to await it.
    ready.catch(() => undefined);
    return unlistenOf(() => {
      set.delete(h);
      if (set.size > 0 || this.channels.get(channel) !== set) return;
      this.channels.delete(channel);
      this.client?.query(`UNLISTEN ${channel}`).catch((err: unknown) => log.warn({ err, channel }, "fanout: UNLISTEN failed"));
    }, ready);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.channels.clear();
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  /** LISTENs on a channel, again after each lost connection until it succeeds. */
  private async listenOn(channel: string): Promise<void> {
    while (!this.closed) {
      const client = await this.connection();
      try {
        await client.query(`LISTEN ${channel}`);
        return;
      } catch (err) {
        // The connection went away; the next one LISTENs on every channel when it opens.
        if (this.client === client) throw err;
      }
    }
    throw new Error("fanout: closed");
  }

  /** The open connection, or the one being opened (retrying until it opens or the fan-out closes). */
  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async open(): Promise<pg.Client> {
    let delay = this.opts.retryMs;
    while (!this.closed) {
      const client = new pg.Client({ connectionString: this.opts.connectionString, application_name: this.opts.applicationName, keepAlive: true });
      client.on("notification", (msg) => {
        const set = this.channels.get(msg.channel);
        if (set && msg.payload !== undefined) deliver(msg.channel, set, msg.payload);
      });
      client.on("error", (err) => this.lost(client, err));
      client.on("end", () => this.lost(client));
      try {
        await client.connect();
        for (const channel of this.channels.keys()) await client.query(`LISTEN ${channel}`);
        if (this.closed) break;
        this.client = client;
        return client;
      } catch (err) {
        log.warn({ err, retryInMs: delay }, "fanout: cannot connect to PostgreSQL; retrying");
        client.removeAllListeners("end");
        await client.end().catch(() => undefined);
        await sleep(delay);
        delay = Math.min(delay * 2, this.opts.maxRetryMs);
      }
    }
    throw new Error("fanout: closed");
  }

  /** The connection broke: forget it, and reconnect at once if anyone listens. */
  private lost(client: pg.Client, err?: Error): void {
    if (this.client !== client) return;
    this.client = null;
    client.end().catch(() => undefined);
    if (this.closed) return;
    log.warn({ err }, "fanout: lost the PostgreSQL connection; reconnecting");
    if (this.channels.size > 0) this.connection().catch(() => undefined);
  }
}
