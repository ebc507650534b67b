import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ModelTimeoutError, modelCallDeadline, secondsText, withModelDeadline } from "./call-timeout";

describe("model call time limit", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("aborts a call that produces nothing for the limit, with the reason people read", () => {
    const d = modelCallDeadline(30_000);
    vi.advanceTimersByTime(29_999);
    expect(d.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(d.signal.aborted).toBe(true);
    expect(d.signal.reason).toBeInstanceOf(ModelTimeoutError);
    expect((d.signal.reason as Error).message).toBe("the model did not answer within 30 s");
  });

  it("is an idle limit: each part received starts it again, so a long answer that keeps coming is not cut", () => {
    const d = modelCallDeadline(1000);
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(900);
      d.touch();
    }
    expect(d.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1000);
    expect(d.signal.aborted).toBe(true);
  });

  it("done() stops the timer; a parent's abort (the run's cancel) aborts with the parent's reason", () => {
    const d = modelCallDeadline(1000);
    d.done();
    vi.advanceTimersByTime(5000);
    expect(d.signal.aborted).toBe(false);
    const parent = new AbortController();
    const child = modelCallDeadline(1000, parent.signal);
    parent.abort(new Error("cancelled"));
    expect(child.signal.reason).toEqual(new Error("cancelled"));
    child.done();
  });

  it("withModelDeadline turns whatever the SDK throws for the abort into ModelTimeoutError, and passes other errors on", async () => {
    const hung = withModelDeadline(1500, (d) => new Promise((_, reject) => d.signal.addEventListener("abort", () => reject(new Error("This operation was aborted")))));
    vi.advanceTimersByTime(1500);
    await expect(hung).rejects.toThrow(new ModelTimeoutError(1500));
    await expect(withModelDeadline(1500, async () => Promise.reject(new Error("scripted 500")))).rejects.toThrow("scripted 500");
    await expect(withModelDeadline(1500, async () => "answer")).resolves.toBe("answer");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("says durations in seconds", () => {
    expect([secondsText(120_000), secondsText(1500), secondsText(1000)]).toEqual(["120 s", "1.5 s", "1 s"]);
  });
});
