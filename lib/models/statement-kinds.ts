/**
 * What a statement of a document is about, for the offline model's summaries, briefs and
 * memory proposals: a decision, a risk, an action item (an owner and a task, usually a
 * date), a recommendation, and whether it carries a date (and which, for sorting). Keyword
 * rules, deterministic; a section's heading counts as much as the statement's own words.
 */

/** The kinds a statement can have (several at once). */
export type StatementKind = "decision" | "risk" | "action" | "recommendation";

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const DAY_MONTH = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH}\\b\\.?(?:,?\\s+(\\d{4}))?`, "i");
const MONTH_DAY = new RegExp(`\\b${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4}))?`, "i");
const ISO = /\b(\d{4})-(\d{2})-(\d{2})\b/;
/** Any date-like phrase: a calendar date, a month with a year, a quarter, a weekday, "end of <month>". */
const DATE_LIKE = new RegExp(
  `${DAY_MONTH.source}|${MONTH_DAY.source}|\\b\\d{4}-\\d{2}(?:-\\d{2})?\\b|\\b${MONTH}\\s+\\d{4}\\b|\\bQ[1-4]\\b|\\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\\b|\\bend of (?:the )?(?:week|month|quarter|year|${MONTH})\\b`,
  "i",
);

/** True when `text` names a date, a weekday, a quarter or an "end of …". */
export function hasDate(text: string): boolean {
  return DATE_LIKE.test(text);
}

/**
 * The first calendar date in `text` as a sortable number yyyymmdd (year 0 when the text
 * gives none and `year` is not passed), or undefined when it names no day of a month.
 */
export function dateKey(text: string, year?: number): number | undefined {
  const iso = ISO.exec(text);
  const dm = DAY_MONTH.exec(text);
  const md = MONTH_DAY.exec(text);
  const found: { at: number; key: number }[] = [];
  if (iso) found.push({ at: iso.index, key: Number(iso[1]) * 10_000 + Number(iso[2]) * 100 + Number(iso[3]) });
  const month = (name: string | undefined) => MONTHS.indexOf((name ?? "").slice(0, 3).toLowerCase()) + 1;
  if (dm) found.push({ at: dm.index, key: Number(dm[3] ?? year ?? 0) * 10_000 + month(dm[2]) * 100 + Number(dm[1]) });
  const end = new RegExp(`\\bend of (?:the )?${MONTH}\\b(?:\\s+(\\d{4}))?`, "i").exec(text);
  if (end) found.push({ at: end.index, key: Number(end[2] ?? year ?? 0) * 10_000 + month(end[1]) * 100 + 31 });
  if (md) found.push({ at: md.index, key: Number(md[3] ?? year ?? 0) * 10_000 + month(md[1]) * 100 + Number(md[2]) });
  return found.sort((a, b) => a.at - b.at)[0]?.key;
}

/** The most frequent four-digit year (1900-2099) in `text`, or undefined. */
export function documentYear(text: string): number | undefined {
  const counts = new Map<number, number>();
  for (const m of text.matchAll(/\b(19|20)\d{2}\b/g)) counts.set(Number(m[0]), (counts.get(Number(m[0])) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0];
}

const SECTION_KINDS: [StatementKind, RegExp][] = [
  ["decision", /\b(?:decisions?|decided|agreed|agreements?|resolutions?|outcomes?|conclusions?)\b/i],
  ["risk", /\b(?:risks?|concerns?|blockers?|issues|open questions?|limits?|limitations?|caveats?|threats?)\b/i],
  ["action", /\b(?:action items?|actions|next steps?|to-?dos?|tasks|follow-?ups?|owners?|assignments?)\b/i],
  ["recommendation", /\b(?:recommendations?|proposals?|suggestions?)\b/i],
];

const TEXT_KINDS: [StatementKind, RegExp][] = [
  ["decision", /\b(?:we|they|the (?:team|group|board|committee))\s+(?:\w+\s+)?(?:decided|agreed|chose|approved|resolved)\b|\b(?:decided|decision|agreed to|agreed that)\b/i],
  ["risk", /\b(?:risks?|blockers?|could slip|may slip|might slip|could delay|at risk|danger|threat|if [^.]{0,60}\b(?:slips?|fails?)\b|would stall|bottleneck)\b/i],
  ["recommendation", /\b(?:recommends?|recommended|recommendation|we suggest|should adopt)\b/i],
];

/**
 * The kinds of a statement found under the section headings `path` (outermost first).
 * An item of an "Action items" list is an action; in a "Decisions" section, a decision;
 * anywhere, its own words can add kinds ("we decided", "risk", "Name: task, due …").
 * A statement that names an owner only counts as an action when it also names a date or
 * sits in an action section, so prose such as "Note: …" is not an action.
 */
export function kindsOf(text: string, path: string[] = []): Set<StatementKind> {
  const kinds = new Set<StatementKind>();
  const heading = path.join(" / ");
  for (const [kind, re] of SECTION_KINDS) if (re.test(heading)) kinds.add(kind);
  for (const [kind, re] of TEXT_KINDS) if (re.test(text)) kinds.add(kind);
  if (/\b(?:TODO|FIXME)\b/.test(text) || (ownerOf(text) !== undefined && hasDate(text))) kinds.add("action");
  return kinds;
}

/** Words that open a labelled line ("Date: …") rather than name an owner. */
const LABELS = new Set(
  "date time when where location venue attendees present absent agenda note notes next status version release summary context update budget goal goals result results cost scope owner from in on at by for the this that these those after before during since until if we our it its they there here each every all".split(
    " ",
  ),
);

/** Verbs that make "Name <verb> …" an assignment ("Alice owns the inbox by Friday"). */
const DOING = "owns|ships|fixes|writes|drafts|books|sends|prepares|reviews|delivers|updates|leads|handles|takes|checks|runs|files|follows up|investigates|schedules";

/**
 * The owner an action item names, or undefined: "@name …", "Owner: Name", "assigned to
 * Name", or a line opening with a capitalised name (one or two words) followed by ":", a
 * dash, "to" or "will" ("Jonas Berg — apply …", "Rui will deliver …").
 */
export function ownerOf(text: string): string | undefined {
  const t = text.replace(/^\s*(?:\[[ xX]\]\s*)?/, "");
  const at = /(?:^|\s)@([\w.-]+)/.exec(t)?.[1];
  if (at) return at;
  const named = /\b(?:owner|assigned to|assignee)\s*:?\s+([A-Z][\w.-]*(?: [A-Z][\w.-]*)?)/i.exec(t)?.[1];
  if (named) return named;
  const lead = /^([A-Z][a-z\u00C0-\u024F]+(?: [A-Z][a-z\u00C0-\u024F]+)?)\s*(?::|—|–|-{1,2}|\bto\b|\bwill\b)\s*\S/.exec(t)?.[1];
  if (lead && !LABELS.has((lead.split(" ")[0] ?? "").toLowerCase())) return lead;
  const doer = new RegExp(`^([A-Z][a-z\\u00C0-\\u024F]+)\\s+(?:${DOING})\\b`).exec(t)?.[1];
  if (doer && !LABELS.has(doer.toLowerCase())) return doer;
  return undefined;
}

/** True for an unchecked task-list item or a line with a TODO / FIXME marker. */
export function isTodo(text: string, checked?: boolean): boolean {
  return checked === false || /\b(?:TODO|FIXME)\b/.test(text);
}
