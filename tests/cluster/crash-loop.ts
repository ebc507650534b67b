import type { ClusterProcess } from "./cluster";
import type { DrivenRun } from "./side-effects";

/** Options of {@link crashLoop}. */
export interface CrashLoopOptions {
  /** SIGKILLs to deliver. */
  kills: number;
  /** The processes a kill picks from (at random). */
  victims: ClusterProcess[];
  /** Wait before each kill, ms: uniform in [min, max] (a random moment of the runs). */
  gapMs: [number, number];
  /** Runs driven at once, started again as each ends, until the kills are done. */
  drivers: number;
  /** Drives one run to its end; `n` numbers the runs from 0. */
  drive: (n: number) => Promise<DrivenRun>;
}

/** What a crash loop did. */
export interface CrashLoopResult {
  kills: number;
  runs: DrivenRun[];
  /** Drivers that threw (an HTTP answer the test did not expect), with their message. */
  errors: string[];
}

/**
 * Kills processes at random moments while runs are driven, restarting each victim right
 * away (a supervisor would), then lets the runs in flight end. Runs keep starting until the
 * last kill, so kills land in every phase of a run.
 */
export async function crashLoop(opts: CrashLoopOptions): Promise<CrashLoopResult> {
  const runs: DrivenRun[] = [];
  const errors: string[] = [];
  let killing = true;
  let next = 0;
  const driver = async () => {
    while (killing) {
      const n = next++;
      try {
        runs.push(await opts.drive(n));
      } catch (err) {
        errors.push(err instanceof Error ? err.message : String(err));
      }
    }
  };
  const drivers = Array.from({ length: opts.drivers }, driver);
  let kills = 0;
  try {
    for (let i = 0; i < opts.kills; i++) {
      const [min, max] = opts.gapMs;
      await new Promise((r) => setTimeout(r, min + Math.random() * (max - min)));
      const victim = opts.victims[Math.floor(Math.random() * opts.victims.length)];
      if (!victim) throw new Error("no process to kill");
      await victim.kill();
      kills += 1;
      await victim.start();
    }
  } finally {
    killing = false;
    await Promise.all(drivers);
  }
  return { kills, runs, errors };
}

/** One line of counts for the test output: kills, runs, completed, asked a person, stuck, doubled. */
export function crashSummary(label: string, r: CrashLoopResult, doubled: number, doubledSteps: number): string {
  const completed = r.runs.filter((x) => x.status === "completed").length;
  const asked = r.runs.filter((x) => x.askedPerson).length;
  const stuck = r.runs.filter((x) => x.stuck).length;
  return `${label}: ${r.kills} kills, ${r.runs.length} runs, ${completed} completed, ${asked} asked a person, ${stuck} stuck, ${doubled} doubled side effects, ${doubledSteps} doubled steps, ${r.errors.length} driver errors`;
}
