import { relatedSources } from "./brief-review";
import { outlineOf } from "./document-outline";
import { dateKey, documentYear, type StatementKind } from "./statement-kinds";
import type { Shaping, SourceText } from "./step-context";
import { type KeptPoint, type KeptSection, keptSectionsOf } from "./summary-points";

/**
 * The documents the offline model writes from files it read: a summary of one source that
 * keeps the source's shape (its headings become sections, lists stay lists, every decision,
 * risk and action item is kept), and a brief of several sources where every point says
 * which source it comes from ("(source: notes.md)"). A Human-input answer shapes both: the
 * audience is named in the title and the focus gets the first section. Deterministic.
 */

/** Opening points a brief takes from each source besides its decisions, risks and actions. */
export const BRIEF_KEY_POINTS = 4;

/** "a.md", "a.md and b.md", "a.md, b.md and c.md". */
export function joinNames(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const STOP = new Set("the a an and or of on to in for with about what that this".split(" "));

/**
 * Which points a focus asks for: dates for "deadlines/dates/timeline/schedule/when", and the
 * kinds for "risks", "decisions", "actions/tasks/owners", "recommendations"; any other focus
 * matches points whose text or section headings share one of its words (first five letters).
 */
export function focusMatcher(focus: string): { matches: (p: KeptPoint) => boolean; byDate: boolean } {
  const f = focus.toLowerCase();
  const byDate = /\b(?:deadlines?|dates?|due|timelines?|schedules?|when|milestones?|calendar)\b/.test(f);
  const kinds: StatementKind[] = [];
  if (/\b(?:risks?|blockers?|concerns?|issues?)\b/.test(f)) kinds.push("risk");
  if (/\b(?:decisions?|decided|agreements?)\b/.test(f)) kinds.push("decision");
  if (/\b(?:actions?|action items?|tasks?|to-?dos?|owners?|next steps?|follow-?ups?)\b/.test(f)) kinds.push("action");
  if (/\brecommend/.test(f)) kinds.push("recommendation");
  if (byDate || kinds.length > 0) return { byDate, matches: (p) => (byDate && p.dated) || kinds.some((k) => p.kinds.has(k)) };
  const stems = (f.match(/[a-z0-9]+/g) ?? []).filter((w) => w.length > 2 && !STOP.has(w)).map((w) => w.slice(0, 5));
  // A word of the focus found in the point or in a heading above it ("focus on limitations").
  return { byDate, matches: (p) => stems.some((s) => `${p.path.join(" ")} ${p.text}`.toLowerCase().includes(s)) };
}

/** Italic notes naming the sources that could not be read, so the text never passes for complete. */
function unreadNotes(unread: { file: string; why: string }[]): string[] {
  return unread.flatMap((u) => [`_Not included: ${u.file} could not be read (${u.why.replace(/[._]+$/, "")})._`, ""]);
}

function titleOf(sources: string[], shaping: Shaping): string {
  return `# Summary of ${joinNames(sources)}${shaping.audience ? ` for ${shaping.audience}` : ""}`;
}

/** The focus section: matching points (sorted by date for a date focus), each rendered by `render`. */
function focusSection(points: { point: KeptPoint; year?: number; render: string }[], focus: string): string[] {
  const { matches, byDate } = focusMatcher(focus);
  // The document's own date ("Date: …") is when it was written, not a deadline.
  const picked = points.filter((p) => matches(p.point) && !(byDate && /^(?:date|when|time)\s*:/i.test(p.point.text)));
  if (byDate) {
    const key = (p: (typeof picked)[number]) => dateKey(p.point.text, p.year) ?? Number.MAX_SAFE_INTEGER;
    picked.sort((a, b) => key(a) - key(b) || a.point.order - b.point.order);
  }
  const seen = new Set<string>();
  const lines = picked.filter((p) => !seen.has(p.render) && seen.add(p.render)).map((p) => p.render);
  return [`## ${capitalise(focus)}`, "", ...(lines.length > 0 ? lines : [`_Nothing in the sources matches "${focus}"._`]), ""];
}

/** Heading marks for each section: the shallowest heading of the source becomes "##". */
function headingMarks(sections: KeptSection[]): Map<KeptSection, string> {
  const levels = sections.map((s) => s.section.level).filter((l) => l > 0);
  const min = levels.length > 0 ? Math.min(...levels) : 1;
  return new Map(sections.map((s) => [s, "#".repeat(Math.min(4, 2 + s.section.level - min))]));
}

/**
 * A summary of one source that keeps its shape: its headings as sections (the shallowest
 * as "##"), its lists as lists, every decision, risk and action item (with owner and date,
 * as written), the opening and dated sentences of its paragraphs. The source's title is
 * the line under the summary's title. With a focus, a section of the matching points comes
 * first and the text before the first heading is headed "Overview".
 */
export function summaryOf(source: SourceText, shaping: Shaping = {}, unread: { file: string; why: string }[] = []): string {
  const { outline, sections } = keptSectionsOf(source.text);
  const year = documentYear(source.text);
  const lines = [titleOf([source.file], shaping), ""];
  if (outline.title) lines.push(`_${outline.title}_`, "");
  if (shaping.focus) {
    const all = sections.flatMap((s) => s.points.map((point) => ({ point, year, render: `- ${point.text}` })));
    lines.push(...focusSection(all, shaping.focus));
  }
  const marks = headingMarks(sections);
  // A heading is kept when its section or a deeper one below it keeps something.
  const shown = sections.map(() => false);
  for (let i = sections.length - 1; i >= 0; i--) {
    const s = sections[i] as KeptSection;
    let has = s.points.length > 0;
    for (let j = i + 1; j < sections.length && (sections[j]?.section.level ?? 0) > s.section.level; j++) has ||= s.section.level > 0 && shown[j] === true;
    shown[i] = has;
  }
  sections.forEach((s, i) => {
    if (!shown[i]) return;
    if (s.section.level > 0) lines.push(`${marks.get(s)} ${s.section.title}`, "");
    else if (shaping.focus) lines.push("## Overview", "");
    if (s.points.length > 0) lines.push(...s.points.map((p) => p.line), ...s.notes.map((n) => `_${n}_`), "");
  });
  if (sections.every((s) => s.points.length === 0)) lines.push(`_${source.file} has no text to summarize._`, "");
  if (source.cut) lines.push(`_Only the start of ${source.file} was read; the rest is not summarized._`, "");
  lines.push(...unreadNotes(unread));
  return `${lines.join("\n").trimEnd()}\n`;
}

/** Brief categories in the order they appear; a point goes to the first of its kinds listed. */
const CATEGORIES: { kind: StatementKind; heading: string }[] = [
  { kind: "decision", heading: "Decisions" },
  { kind: "recommendation", heading: "Recommendations" },
  { kind: "risk", heading: "Risks and limits" },
  { kind: "action", heading: "Action items" },
];
const PRIORITY: StatementKind[] = ["action", "decision", "recommendation", "risk"];

/** True when `text` is one of the points a reviewer called unsupported (either contains the other). */
function flagged(text: string, unsupported: string[]): boolean {
  const norm = (t: string) =>
    t
      .toLowerCase()
      .replace(/\s*\((?:source|sources):[^)]*\)\s*$/i, "")
      .replace(/[^a-z0-9]+/g, " ")
      .trim();
  const t = norm(text);
  return unsupported.some((u) => {
    const n = norm(u);
    return n.length > 0 && (t === n || t.includes(n) || n.includes(t));
  });
}

/**
 * A brief of several sources: "Key points" (the {@link BRIEF_KEY_POINTS} most informative
 * plain points of each source), then "Decisions", "Recommendations", "Risks and limits" and
 * "Action items" gathered from every source; each point ends with "(source: <file>)". Every
 * source with any text contributes at least one point. Points a reviewer flagged as
 * unsupported (`drop`) are left out. A last italic line counts the points per source.
 */
export function briefOf(sources: SourceText[], shaping: Shaping = {}, drop: string[] = [], unread: { file: string; why: string }[] = []): string {
  const lines = [
    titleOf(
      sources.map((s) => s.file),
      shaping,
    ),
    "",
  ];
  const perSource = sources.map((source) => {
    const year = documentYear(source.text);
    const points = keptSectionsOf(source.text)
      .sections.flatMap((s) => s.points)
      .filter((p) => !flagged(p.text, drop))
      .map((point) => ({ point, year, file: source.file, render: `- ${point.text} (source: ${source.file})` }));
    return { source, points };
  });
  const used = new Map<string, number>();
  // Each point once, whatever section it would fit (docs/runs.md "Reviews": no repeats).
  const shown = new Set<string>();
  const once = <T extends { point: { text: string } }>(picked: T[]) =>
    picked.filter((p) => {
      const key = p.point.text
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, " ")
        .trim();
      return !shown.has(key) && Boolean(shown.add(key));
    });
  const groups = subjectGroups(sources);
  for (const group of groups) {
    const mark = groups.length > 1 ? "###" : "##";
    const mine = perSource.filter((s) => group.includes(s.source));
    if (groups.length > 1) lines.push(`## ${subjectTitle(group)}`, "");
    const push = (heading: string, picked: { file: string; render: string; point: { text: string } }[]) => {
      const fresh = once(picked);
      if (fresh.length === 0) return;
      lines.push(`${mark} ${heading}`, "", ...fresh.map((p) => p.render), "");
      for (const p of fresh) used.set(p.file, (used.get(p.file) ?? 0) + 1);
    };
    if (shaping.focus) {
      const focus = focusSection(
        mine.flatMap((s) => s.points),
        shaping.focus,
      );
      const [head = "", ...rest] = focus;
      lines.push(`${mark} ${head.replace(/^#+\s*/, "")}`, ...rest);
      for (const l of rest) {
        const m = /^- (.*) \(source: (.+)\)$/.exec(l);
        if (m?.[1] && m[2]) {
          shown.add(
            m[1]
              .toLowerCase()
              .replace(/[^a-z0-9]+/g, " ")
              .trim(),
          );
          used.set(m[2], (used.get(m[2]) ?? 0) + 1);
        }
      }
    }
    const plain = mine.flatMap(({ points }) => {
      // Labelled lines of a document's head ("Date: …", "Attendees: …") are not key points.
      const labelled = (p: (typeof points)[number]) => /^[A-Z][\w ]{0,24}:\s/.test(p.point.text);
      const candidates = points.filter((p) => p.point.kinds.size === 0 && !labelled(p));
      const top = [...candidates].sort((a, b) => b.point.score - a.point.score || a.point.order - b.point.order).slice(0, BRIEF_KEY_POINTS);
      // A source whose every point has a kind (or a label) still opens with one key point.
      const opener = points.find((p) => !labelled(p)) ?? points[0];
      const chosen = top.length > 0 ? top : opener ? [opener] : [];
      return chosen.sort((a, b) => a.point.order - b.point.order);
    });
    push("Key points", plain);
    const categorised = mine.flatMap(({ points }) => points.filter((p) => p.point.kinds.size > 0 && !plain.includes(p)));
    for (const { kind, heading } of CATEGORIES) {
      push(
        heading,
        categorised.filter((p) => PRIORITY.find((k) => p.point.kinds.has(k)) === kind),
      );
    }
  }
  const counts = sources.map((s) => `${s.file} (${used.get(s.file) ?? 0} points)`);
  const empty = sources.filter((s) => !used.get(s.file)).map((s) => s.file);
  if (empty.length > 0) lines.push(`_No usable text in ${joinNames(empty)}._`, "");
  const cut = sources.filter((s) => s.cut).map((s) => s.file);
  if (cut.length > 0) lines.push(`_Only the start of ${joinNames(cut)} was read; the rest is not included._`, "");
  lines.push(...unreadNotes(unread));
  lines.push(`_Sources: ${counts.join(", ")}._`);
  return `${lines.join("\n").trimEnd()}\n`;
}

/**
 * The sources grouped by subject: sources about related subjects together (see
 * `relatedSources`), in order. One group when they all may be about the same thing.
 */
function subjectGroups(sources: SourceText[]): SourceText[][] {
  const groups: SourceText[][] = [];
  for (const source of sources) {
    const home = groups.find((g) => g.some((o) => relatedSources(o, source)));
    if (home) home.push(source);
    else groups.push([source]);
  }
  return groups;
}

/** A group's heading: its sources' titles (else file names), with the file names. */
function subjectTitle(group: SourceText[]): string {
  const titles = group.map((s) => outlineOf(s.text).title ?? s.file);
  return `${joinNames(titles)} (${joinNames(group.map((s) => s.file))})`;
}
