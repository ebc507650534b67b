/**
 * The run queue behind one interface (docs/durability.md#runs-are-jobs): the RunJob table is
 * the truth of which runs were accepted; a queue only tells workers that a job is ready.
 * A job told twice is harmless: executing it starts with conditional claims of the job and
 * the thread's lease, so exactly one worker runs it.
 */
export interface RunQueue {
  /** Which implementation: the RunJob table polled in process, or pg-boss on PostgreSQL. */
  readonly kind: "table" | "pg-boss";
  /** Tells the workers that a committed job is ready. */
  dispatch(jobId: string): Promise<void>;
  /** Starts consuming: `handler` runs each job, at most `concurrency` at once. */
  consume(handler: (jobId: string) => Promise<void>, concurrency: number): Promise<void>;
  /** Stops consuming and waits for the handlers that are running to end. */
  stop(): Promise<void>;
}
