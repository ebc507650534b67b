/**
 * The run store (docs/architecture.md#the-run-store): the one place that reads and writes a
 * run's rows, as `RunsRepo` and `RunsStreamRepo` do for the LangGraph server: the Run, its
 * RunJob, its RunEvents (the thread's timeline, numbered per thread from 1) and the thread's
 * lease (docs/durability.md#the-lease). Implemented on the database (store-prisma.ts) and
 * in memory (store-memory.ts); both pass the same conformance suite (store.conformance.ts).
 *
 * Concurrency lives in the store's conditional writes, never in a caller's memory: an event's
 * seq is unique per thread (a second writer of the same seq fails and takes the next one), a
 * lease is taken or claimed by one conditional update, and a job is claimed with its lease.
 */
import type { JobRow } from "../db/run-jobs-sql";

/** One stored run event: its thread's seq (from 1), its run (null for thread events such as a fork), its name and its JSON data. */
export interface StoredEvent {
  threadId: string;
  runId: string | null;
  /** Per thread, from 1, without gaps for one writer. */
  seq: number;
  /** The event's name (lib/events/run-events.ts RunEventName, or thread_forked). */
  type: string;
  /** JSON text of what the event stores (the stream part, or an event record). */
  data: string;
}

/** Which events to read: of a thread or a run, after a seq, of some names; oldest first unless `newestFirst`. */
export interface EventQuery {
  threadId?: string;
  /** Events of any of these threads (a page of a list). */
  threadIds?: readonly string[];
  /** Events of any of these runs. */
  runIds?: readonly string[];
  /** A run id; null reads the thread's events of no run. */
  runId?: string | null;
  /** Only events with a greater seq. */
  afterSeq?: number;
  /** Only events of these names. */
  types?: readonly string[];
  /** Only events whose data contains this text (an id, e.g. an approval's). */
  dataContains?: string;
  /** At most this many. */
  take?: number;
  newestFirst?: boolean;
}

/** What a new run needs (its job is created with {@link RunStore.createJob}). */
export interface NewRun {
  threadId: string;
  flowVersionId: string;
  /** start | resume */
  kind: "start" | "resume";
}

/** What a new job needs: the run it executes and the input the worker replays. */
export interface NewJob {
  runId: string;
  threadId: string;
  /** Who asked for the run (the thread's user, an approver, or "system"). */
  requestedBy: string;
  /** JSON of the job's input (lib/runs/run-input.ts JobInput). */
  input: string;
  /** The thread's latest checkpoint id when the run was accepted (null: none yet). */
  startCheckpointId: string | null;
}

/** A job as the worker reads it (its columns: lib/db/run-jobs-sql.ts `JobRow`). */
export type JobRecord = JobRow;

/** How a run ended, written with its final event in one commit ({@link RunStore.endRun}). */
export interface RunEnd {
  threadId: string;
  runId: string;
  jobId: string;
  /** The run's final status (lib/run-status.ts); the thread takes it too. */
  status: string;
  /** ms since the epoch. */
  endedAt: number;
  error: string | null;
  /** Tokens this run spent, added to the run's counts. */
  inputTokens: number;
  outputTokens: number;
}

/** A thread's lease whose holder stopped renewing it: the worker that held it is presumed dead. */
export interface LapsedLease {
  threadId: string;
  runId: string;
  /** The worker that held it. */
  holder: string;
}

/** A run recovery gave up on ({@link RunStore.giveUp}). */
export interface GivenUpRun {
  threadId: string;
  runId: string;
  jobId: string;
  /** ms since the epoch. */
  endedAt: number;
  /** What the person reads on the run. */
  error: string;
}

/** The store of runs, jobs, events and leases (see the module comment). */
export interface RunStore {
  /**
   * Appends one event with its thread's next seq and returns that seq. A seq taken meanwhile
   * (another writer) is retried with a fresh one; SQLite busy is retried after a pause.
   * @throws the database's error after 6 attempts.
   */
  append(event: Omit<StoredEvent, "seq">): Promise<number>;
  /** The thread's last seq (0 when it has no events). */
  lastSeq(threadId: string): Promise<number>;
  /** The run's first seq, or null when it stored none. */
  firstSeqOf(runId: string): Promise<number | null>;
  /** The events that match, oldest first (or newest first). */
  events(query: EventQuery): Promise<StoredEvent[]>;
  /** How many events the thread has. */
  countEvents(threadId: string): Promise<number>;
  /** Each thread's newest event of these names (threads with none are left out), in no order. */
  latestOfEach(threadIds: readonly string[], types: readonly string[]): Promise<StoredEvent[]>;

  /** Creates a queued run and returns its id. */
  createRun(run: NewRun): Promise<string>;
  /** Creates the run's job (status queued) and returns its id. */
  createJob(job: NewJob): Promise<string>;
  /** The job, by its id or its run's id; null when there is none. */
  job(by: { id: string } | { runId: string }): Promise<JobRecord | null>;
  /** The thread's newest run that is queued or running, or null. */
  activeRun(threadId: string): Promise<string | null>;

  /**
   * Takes the thread's lease for an accepted run (docs/durability.md#the-lease): true when
   * the thread had none; false when another run holds it.
   */
  takeLease(threadId: string, runId: string): Promise<boolean>;
  /**
   * Claims a job for a worker: its thread's lease (unheld, or lapsed at `now` ms), the job
   * (claimed, holder, attempts + 1) and the run (running) together, or nothing.
   * @returns false when another worker holds the lease or the job is done.
   */
  claim(job: { id: string; runId: string; threadId: string }, holder: string, now: number, ttlMs: number): Promise<boolean>;
  /** Renews the worker's lease to `now + ttlMs`; false when it lost it. */
  heartbeat(threadId: string, runId: string, holder: string, now: number, ttlMs: number): Promise<boolean>;
  /** Releases the run's lease of the thread; false when the run did not hold it. */
  release(threadId: string, runId: string): Promise<boolean>;
  /**
   * Ends a run: the run's status, end time, error and tokens; the earlier waiting runs of its
   * thread take its status (docs/runs.md "Runs that waited"); the thread's status; the job
   * done; and the final event with the thread's next seq, in ONE commit (docs/durability.md
   * "Events after a crash"). The lease is kept (the caller releases it).
   * @returns the final event's seq.
   */
  endRun(end: RunEnd, finalEvent: { type: string; data: string }): Promise<number>;

  // Recovery (lib/runs/worker.ts recoverRuns, docs/durability.md#runs-are-jobs).
  /** Up to `take` leases held by a worker and lapsed at `now` (ms since the epoch), the oldest expiry first. */
  lapsedLeases(now: number, take?: number): Promise<LapsedLease[]>;
  /**
   * Puts a claimed job back in the queue (queued, no holder) when `holder` still holds it: one
   * conditional update, so of two recoveries of the same lapse one wins.
   * @returns false when the job is not claimed by `holder` (another recovery or a worker got there first).
   */
  requeue(jobId: string, holder: string): Promise<boolean>;
  /** Up to `take` queued jobs last changed before `before` (ms since the epoch): their dispatch may be lost. */
  staleQueued(before: number, take: number): Promise<string[]>;
  /**
   * Marks a queued job dispatched again: no holder, last changed now, so the next sweep leaves it
   * alone for as long as it left it queued.
   * @returns false when the job is no longer queued.
   */
  touchQueued(jobId: string): Promise<boolean>;
  /**
   * Ends a run recovery gave up on, in ONE commit: the run `interrupted` with its end time and
   * error, the thread's earlier waiting runs interrupted too (docs/runs.md "Runs that
   * waited"), the job done, and the thread's lease freed if the run held it. The thread's
   * status is left as it is: a `running` thread without a lease is what Continue resumes and
   * what people read as Interrupted (lib/run-status.ts threadStatusShown).
   */
  giveUp(run: GivenUpRun): Promise<void>;
}
