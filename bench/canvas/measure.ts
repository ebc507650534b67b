import type { Page } from "@playwright/test";

/**
 * In-page measurements of the flow editor canvas: first render of a flow and the
 * frame rate of a pointer gesture (node drag, canvas pan), by requestAnimationFrame.
 * Functions passed to `page.evaluate` run in the browser and must stay self-contained.
 */

/** Times of one editor load, ms since navigation start (Navigation Timing's time origin). */
export interface RenderSample {
  /** Navigation Timing responseStart: the server's first byte (server render included). */
  ttfb: number;
  domContentLoaded: number;
  /** The first animation frame that saw every expected `.react-flow__node` in the DOM (null: never all mounted). */
  inDom: number | null;
  /** The first frame in which every mounted node was measured (none has visibility: hidden). */
  measured: number;
  /** The first frame after fitView moved the viewport, or null if it never changed. */
  fitted: number | null;
  /** The figure: the first frame at or after fitView in which every mounted node is measured. */
  firstRender: number;
  /** Nodes mounted then: all of them, or only those on screen with onlyRenderVisibleElements. */
  mounted: number;
  /** Size of the page's HTML (decoded body, bytes): the server-rendered canvas and the RSC payload. */
  htmlBytes: number;
}

/** The render probe's state. */
interface Probe {
  expected: number;
  inDom: number | null;
  measured: number | null;
  fitted: number | null;
  done: number | null;
  mounted: number;
  transform: string | null;
}

/** The probe's state on `window`. */
interface ProbeWindow {
  __canvasProbe?: Probe;
  __canvasRecorder?: Recorder;
  __canvasRecording?: boolean;
}

/**
 * Installs (for every later navigation of `page`) a probe that checks the canvas once per
 * animation frame. A frame is "ready" when nodes are mounted and React Flow has measured
 * all of them (it hides a node until then), and either all `expected` nodes are mounted or
 * the mounted count did not change since the frame before (React Flow mounts only the
 * nodes on screen when onlyRenderVisibleElements is on). The probe stops at the first
 * ready frame once fitView has moved the viewport, or 3 s after the first ready frame if
 * fitView never moves it. Resolution: one frame (16.7 ms at 60 Hz) plus however late the
 * frame runs.
 */
export async function installRenderProbe(page: Page, expected: number): Promise<void> {
  await page.addInitScript((n: number) => {
    const w = window as unknown as ProbeWindow;
    const probe: Probe = { expected: n, inDom: null, measured: null, fitted: null, done: null, mounted: 0, transform: null };
    w.__canvasProbe = probe;
    let before = -1;
    const tick = () => {
      const now = performance.now();
      const nodes = document.querySelectorAll<HTMLElement>(".react-flow__node");
      const count = nodes.length;
      if (probe.inDom === null && count >= probe.expected) probe.inDom = now;
      const viewport = document.querySelector<HTMLElement>(".react-flow__viewport");
      if (viewport && probe.fitted === null) {
        const t = viewport.style.transform;
        if (probe.transform === null) probe.transform = t;
        else if (t !== probe.transform) probe.fitted = now;
      }
      let ready = count > 0 && (count >= probe.expected || count === before);
      before = count;
      for (let i = 0; ready && i < count; i++) if (nodes[i]?.style.visibility === "hidden") ready = false;
      if (ready) {
        probe.measured ??= now;
        if (probe.fitted !== null || now - probe.measured > 3000) {
          probe.done = probe.fitted !== null ? now : probe.measured;
          probe.mounted = count;
          return;
        }
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  }, expected);
}

/**
 * Loads `url` (a new navigation) and waits for the render probe.
 * @throws TimeoutError when the canvas is not rendered within `timeoutMs`.
 */
export async function measureRender(page: Page, url: string, timeoutMs = 120_000): Promise<RenderSample> {
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForFunction(() => (window as unknown as ProbeWindow).__canvasProbe?.done != null, undefined, { timeout: timeoutMs, polling: 100 });
  return page.evaluate(() => {
    const p = (window as unknown as ProbeWindow).__canvasProbe;
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    if (!p || p.done === null || p.measured === null || !nav) throw new Error("render probe missing");
    return {
      ttfb: nav.responseStart,
      domContentLoaded: nav.domContentLoadedEventEnd,
      inDom: p.inDom,
      measured: p.measured,
      fitted: p.fitted,
      firstRender: p.done,
      mounted: p.mounted,
      htmlBytes: nav.decodedBodySize,
    };
  });
}

export interface Point {
  x: number;
  y: number;
}

/** The canvas box in page pixels. */
async function canvasBox(page: Page) {
  const box = await page.getByTestId("flow-canvas").boundingBox();
  if (!box) throw new Error("no flow canvas on the page");
  return box;
}

/**
 * The center of the node of `kind` nearest the canvas center that is fully on screen and
 * not covered (minimap, controls), with its id. Hit tests are slow on a big canvas (each
 * `elementFromPoint` may take milliseconds), so candidates are tried nearest first and the
 * first that passes wins.
 * @throws Error when no such node is visible.
 */
export async function pickNode(page: Page, kind: string): Promise<Point & { id: string }> {
  const box = await canvasBox(page);
  const found = await page.evaluate(
    ({ box, kind }) => {
      const cx = box.x + box.width / 2;
      const cy = box.y + box.height / 2;
      const candidates: { el: HTMLElement; x: number; y: number; d: number }[] = [];
      for (const el of document.querySelectorAll<HTMLElement>(`.react-flow__node-${kind}`)) {
        const r = el.getBoundingClientRect();
        if (r.left < box.x || r.top < box.y || r.right > box.x + box.width || r.bottom > box.y + box.height) continue;
        const x = r.left + r.width / 2;
        const y = r.top + r.height / 2;
        candidates.push({ el, x, y, d: Math.hypot(x - cx, y - cy) });
      }
      candidates.sort((a, b) => a.d - b.d);
      const hit = candidates.find((c) => document.elementFromPoint(c.x, c.y)?.closest(".react-flow__node") === c.el);
      return hit ? { id: hit.el.dataset.id ?? "", x: hit.x, y: hit.y } : null;
    },
    { box, kind },
  );
  if (!found) throw new Error(`no ${kind} node fully visible on the canvas`);
  return found;
}

/**
 * A point of the empty pane (no node, edge, handle, minimap or controls under it) nearest
 * the canvas center, on a 20 px grid, nearest first.
 * @throws Error when no grid point inside the canvas is empty.
 */
export async function pickPane(page: Page): Promise<Point> {
  const box = await canvasBox(page);
  const found = await page.evaluate((box) => {
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const points: { x: number; y: number; d: number }[] = [];
    for (let x = box.x + 20; x < box.x + box.width - 20; x += 20) {
      for (let y = box.y + 20; y < box.y + box.height - 20; y += 20) points.push({ x, y, d: Math.hypot(x - cx, y - cy) });
    }
    points.sort((a, b) => a.d - b.d);
    const hit = points.find((p) => document.elementFromPoint(p.x, p.y)?.classList.contains("react-flow__pane"));
    return hit ? { x: hit.x, y: hit.y } : null;
  }, box);
  if (!found) throw new Error("no empty spot on the canvas to pan from");
  return found;
}

/** What the page saw during one gesture (times in ms, page clock). */
export interface FrameStats {
  /** Press to release, as the page's pointerdown / pointerup listeners saw them. */
  ms: number;
  /** Frames in which the watched element's transform had changed (visual updates), in order. */
  updates: number[];
  /** Gaps between visual updates, the first measured from the press. */
  intervals: number[];
  /** requestAnimationFrame callbacks between press and release (main-thread frames). */
  frames: number;
  /** Pointer moves sent, and mousemove events the page dispatched (fewer: moves that queued up were merged). */
  moves: number;
  events: number;
}

/** In-page recorder state. */
interface Recorder {
  frames: number[];
  updates: number[];
  down: number | null;
  up: number | null;
  events: number;
}

/** Interval between pointer moves: a 125 Hz mouse. */
const INPUT_INTERVAL_MS = 8;

/**
 * A drag gesture as a real mouse makes it: presses at `start`, sends a move every 8 ms for
 * `durationMs` along a Lissajous path of amplitude `amp` (px) that ends back at `start`,
 * and releases. Moves go through CDP Input.dispatchMouseEvent without waiting for each to
 * be handled, so moves that queue up while the page is busy get merged (as with a real
 * mouse) instead of slowing the sender down. Meanwhile a requestAnimationFrame loop notes each
 * frame in which the inline transform of `watch` (a CSS selector: the dragged node, or
 * the viewport for a pan) differs from the frame before: those are the frames that showed
 * the motion, whatever else the main thread was doing.
 */
export async function gesture(page: Page, watch: string, start: Point, amp: Point, durationMs: number): Promise<FrameStats> {
  const cdp = await page.context().newCDPSession(page);
  const send = (type: "mouseMoved" | "mousePressed" | "mouseReleased", x: number, y: number, buttons: number) =>
    cdp.send("Input.dispatchMouseEvent", { type, x, y, button: type === "mouseMoved" && buttons === 0 ? "none" : "left", buttons, clickCount: type === "mouseMoved" ? 0 : 1 });
  try {
    await send("mouseMoved", start.x, start.y, 0);
    await page.evaluate((selector: string) => {
      const w = window as unknown as ProbeWindow;
      const rec: Recorder = { frames: [], updates: [], down: null, up: null, events: 0 };
      w.__canvasRecorder = rec;
      w.__canvasRecording = true;
      addEventListener(
        "pointerdown",
        () => {
          rec.down ??= performance.now();
        },
        { capture: true, once: true },
      );
      addEventListener(
        "pointerup",
        () => {
          rec.up ??= performance.now();
        },
        { capture: true, once: true },
      );
      const onMove = () => {
        if (w.__canvasRecording) rec.events++;
        else removeEventListener("mousemove", onMove, true);
      };
      addEventListener("mousemove", onMove, true);
      let last: string | null = null;
      const loop = (t: number) => {
        if (!w.__canvasRecording) return;
        rec.frames.push(t);
        const now = document.querySelector<HTMLElement>(selector)?.style.transform ?? "";
        if (last !== null && now !== last) rec.updates.push(t);
        last = now;
        requestAnimationFrame(loop);
      };
      requestAnimationFrame(loop);
    }, watch);
    await send("mousePressed", start.x, start.y, 1);
    // Not awaited one by one; each failure is kept (not left unhandled) and thrown below.
    const sent: Promise<unknown>[] = [];
    const move = (x: number, y: number) => sent.push(send("mouseMoved", x, y, 1).catch((err: unknown) => err ?? new Error("mouse move failed")));
    const t0 = performance.now();
    let moves = 0;
    for (let elapsed = 0; elapsed < durationMs; elapsed = performance.now() - t0) {
      const p = elapsed / durationMs;
      move(start.x + amp.x * Math.sin(4 * Math.PI * p), start.y + amp.y * Math.sin(6 * Math.PI * p));
      moves++;
      const wait = t0 + moves * INPUT_INTERVAL_MS - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    move(start.x, start.y);
    const failed = (await Promise.all(sent)).find((r) => r instanceof Error);
    if (failed) throw failed;
    await send("mouseReleased", start.x, start.y, 0);
    const rec = await page.evaluate(
      () =>
        new Promise<Recorder>((resolve) => {
          // Two more frames, so a release that is still queued is seen.
          requestAnimationFrame(() =>
            requestAnimationFrame(() => {
              const w = window as unknown as ProbeWindow;
              w.__canvasRecording = false;
              resolve(w.__canvasRecorder ?? { frames: [], updates: [], down: null, up: null, events: 0 });
            }),
          );
        }),
    );
    if (rec.down === null || rec.up === null) throw new Error("the page saw no press or no release");
    const { down, up } = rec;
    const updates = rec.updates.filter((t) => t >= down && t <= up);
    const intervals = updates.map((t, i) => t - (i === 0 ? down : (updates[i - 1] ?? t)));
    return { ms: up - down, updates, intervals, frames: rec.frames.filter((t) => t >= down && t <= up).length, moves: moves + 1, events: rec.events };
  } finally {
    await cdp.detach().catch(() => {}); // the browser may be gone already (an error, Ctrl-C)
  }
}

/** The `p`-th percentile (nearest rank) of `values`. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)] ?? Number.NaN;
}

/** Summary of several gestures pooled. */
export interface GestureSummary {
  /** Visual updates per second of gesture: the frame rate the user sees. */
  fps: number;
  /** 95th percentile of the gaps between visual updates, ms. */
  p95: number;
  /** Gaps over 50 ms, and all gaps. */
  long: number;
  gaps: number;
  /** requestAnimationFrame callbacks per second (the main thread's frame rate). */
  rafFps: number;
  /** Moves sent per second, and mousemove events the page dispatched per second. */
  sentPerSecond: number;
  eventsPerSecond: number;
}

/** Pools gestures: frames and time are added up, percentiles taken over every gap. */
export function summarize(runs: readonly FrameStats[]): GestureSummary {
  const intervals = runs.flatMap((r) => r.intervals);
  const ms = runs.reduce((s, r) => s + r.ms, 0);
  const per = (n: number) => (ms > 0 ? (n * 1000) / ms : 0);
  return {
    fps: per(runs.reduce((s, r) => s + r.updates.length, 0)),
    p95: percentile(intervals, 95),
    long: intervals.filter((t) => t > 50).length,
    gaps: intervals.length,
    rafFps: per(runs.reduce((s, r) => s + r.frames, 0)),
    sentPerSecond: per(runs.reduce((s, r) => s + r.moves, 0)),
    eventsPerSecond: per(runs.reduce((s, r) => s + r.events, 0)),
  };
}
