import { outlineOf } from "./document-outline";
import { escapeRe } from "./offline-text";
import { hasDate } from "./statement-kinds";
import type { SourceText } from "./source-text";
import { keptSectionsOf } from "./summary-points";

/**
 * What a task asks of the offline model beyond its files (docs/runs.md): which named files
 * are outputs (written, never read), how many points and for whom, whether it is a question
 * to answer from the files, and which capabilities it needs that no agent of the flow has.
 * English, French and Spanish phrasings. Pure, deterministic.
 */

/** Articles and nouns allowed between a preposition and an output file ("into the new file x.md"). */
const FILLER = "(?:(?:a|an|the|new|file|le|la|les|un|une|nouveau|nouvelle|fichier|el|los|las|nuevo|nueva|archivo)\\s+)*";
/** Prepositions that name where the result goes, whatever comes before. */
const INTO = "into|to|onto|as|dans|vers|sous|a|à|hacia";
/** Prepositions that name an output only after a source file or a verb that produces something. */
const IN = "in|en";
/** Verbs that produce a file ("make a checklist in todo.md"). */
const PRODUCE =
  /\b(?:make|write|create|save|put|store|produce|build|generate|draft|extract|copy|add|append|summari[sz]e|condense|record|list|écri[st]|écrire|crée[rz]?|enregistre|mets|ajoute|extrai[st]|résume[rz]?|copie|escribe|crea|guarda|pon|añade|agrega|extrae|resume|resumir|copia)\b/i;
/** Verbs whose files are all inputs ("compare a.md to b.md"). */
const COMPARE = /\b(?:compare|diff|versus|vs\.?|compar[ae]r?)\b/i;

/**
 * The named files that are outputs: after "into/to/as/dans/vers/à" (any task but a
 * comparison), or after "in/en" when a source file or a producing verb comes before.
 * @param files the file names of the task, in order of appearance.
 */
export function outputFiles(task: string, files: string[]): string[] {
  if (COMPARE.test(task)) return [];
  return files.filter((file) => {
    const at = task.indexOf(file);
    const before = task.slice(0, at);
    const into = new RegExp(`(?:^|\\s)(?:${INTO})\\s+${FILLER}$`, "i").test(before);
    if (into) return true;
    if (!new RegExp(`(?:^|\\s)(?:${IN})\\s+${FILLER}$`, "i").test(before)) return false;
    return files.some((f) => f !== file && task.indexOf(f) < at) || PRODUCE.test(before);
  });
}

/** A word for each small number, in English, French and Spanish. */
const NUMBERS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  un: 1,
  une: 1,
  deux: 2,
  trois: 3,
  quatre: 4,
  cinq: 5,
  sept: 7,
  huit: 8,
  neuf: 9,
  dix: 10,
  uno: 1,
  dos: 2,
  tres: 3,
  cuatro: 4,
  cinco: 5,
  seis: 6,
  siete: 7,
  ocho: 8,
  nueve: 9,
  diez: 10,
};

/** What a summary or an answer must respect. */
export interface Request {
  /** Points asked for ("in three bullet points" -> 3). */
  count?: number;
  /** Who it is for ("for managers" -> "managers"). */
  audience?: string;
}

/** Words that end an audience phrase ("for managers in three points"). */
const AUDIENCE_END = new Set("in into to as with using and or but en dans avec con y et from of de del about sur".split(" "));

/**
 * The count and the audience a task asks for: "in three bullet points", "in 4 bullets",
 * "en trois points", "en tres puntos"; "for managers", "pour les managers", "para los
 * gerentes". Numbers from 1 to 10 in words, any in digits (at most 20).
 */
export function requestOf(task: string): Request {
  const out: Request = {};
  const words = Object.keys(NUMBERS).join("|");
  const count = new RegExp(
    `\\b(\\d{1,2}|${words})\\s+(?:(?:key|main|short|brief|clés?|principaux|principales|clave)\\s+)?(?:bullet[\\s-]*points?|bullets?|points?|items?|sentences?|lines?|puntos?|viñetas?|phrases?|lignes?|idées?|ideas?)\\b`,
    "i",
  ).exec(task);
  if (count?.[1]) {
    const n = /^\d+$/.test(count[1]) ? Number(count[1]) : NUMBERS[count[1].toLowerCase()];
    if (n && n > 0 && n <= 20) out.count = n;
  }
  const audience = /\b(?:for|pour|para)\s+((?:the|our|my|les|nos|mes|los|las|nuestros|nuestras|mis)\s+)?([^\s,.;:!?]+(?:\s+[^\s,.;:!?]+){0,3})/i.exec(task);
  if (audience?.[2]) {
    const kept: string[] = [];
    for (const w of audience[2].split(/\s+/)) {
      if (AUDIENCE_END.has(w.toLowerCase()) || /\.\w+$/.test(w) || /^\d/.test(w) || NUMBERS[w.toLowerCase()]) break;
      kept.push(w);
    }
    if (kept.length > 0) out.audience = `${audience[1] ?? ""}${kept.join(" ")}`.trim();
  }
  return out;
}

/** An audience that does not want setup details: commands, paths, URLs, settings. */
const NON_TECHNICAL = /\b(?:manag|exec|leader|board|director|stakeholder|customer|client|sales|marketing|investor|sponsor|boss|ceo|cfo|vp|direction|dirigeant|gerente|directiv|jefe|responsable)/i;

/** A point about setup rather than substance: a code span, a command, a path, a URL or a setting. */
const TECHNICAL =
  /`|https?:\/\/|\blocalhost\b|\.env\b|\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\b(?:npm|npx|pip|docker|git|curl|sudo|yarn|brew|install|installation|config(?:ure)?|setup|set up|deploy folder)\b|(?:^|\s)\/?[\w-]+\/[\w./-]*/i;

/**
 * The requested number of points from the sources, for the audience: the most informative
 * points (decisions, risks, actions, dates and figures first), without setup details when
 * the audience is not technical, each once, in document order, each citing its source
 * when there are several. A title names the sources and the audience.
 */
export function pointsAnswer(sources: SourceText[], request: Request): string {
  const plain = request.audience ? NON_TECHNICAL.test(request.audience) : false;
  const many = sources.length > 1;
  const candidates = sources.flatMap((source, s) =>
    keptSectionsOf(source.text).sections.flatMap((section) =>
      section.points.map((p) => ({
        text: p.text,
        file: source.file,
        order: s * 100_000 + p.order,
        // What a reader acts on first: decisions, risks and actions, then dated and figured points.
        score: p.score + (p.kinds.size > 0 ? 3 : 0) + (p.dated ? 1 : 0),
      })),
    ),
  );
  const seen = new Set<string>();
  const usable = candidates.filter((c) => {
    const key = c.text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, " ")
      .trim();
    if (seen.has(key) || key.length < 12 || /^[A-Z][\w ]{0,24}:\s/.test(c.text)) return false;
    seen.add(key);
    return !(plain && TECHNICAL.test(c.text));
  });
  const n = request.count ?? Math.min(5, usable.length);
  const picked = [...usable]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, n)
    .sort((a, b) => a.order - b.order);
  const title = `# Summary of ${sources.map((s) => s.file).join(" and ")}${request.audience ? ` for ${request.audience}` : ""}`;
  const lines = [title, "", ...picked.map((p) => `- ${p.text.replace(/\s*[.;]?$/, ".")}${many ? ` (source: ${p.file})` : ""}`)];
  if (picked.length < n) lines.push("", `_The source${many ? "s give" : " gives"} only ${picked.length} such point${picked.length === 1 ? "" : "s"}._`);
  return `${lines.join("\n")}\n`;
}

/** A question the files may answer: it opens with a question word and is not about the assistant. */
export function isQuestion(task: string): boolean {
  const t = task.trim();
  if (!/^(?:when|where|who|whom|whose|what|which|how (?:many|much|long|often)|quand|où|qui|quel(?:le)?s?|combien|cuándo|cuando|dónde|donde|quién|quien|qué|cuál|cuántos?|cuántas?)\b/i.test(t))
    return false;
  return !/\b(?:you|your|yourself|vous|tu|toi|usted|tú)\b/i.test(t) && t.split(/\s+/).length >= 4;
}

const QUESTION_STOP = new Set(
  "when where who whom whose what which how many much long often is are was were will would the a an of on in at to for do does did be by next this that there our we it its quand qui quel quelle est sont le la les des du de un une cuándo cuando dónde donde quién quien qué cuál es son el los las del".split(
    " ",
  ),
);

/** Stems (first five letters) of a text's content words. */
function stems(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 2 && !QUESTION_STOP.has(w)).map((w) => w.slice(0, 5));
}

/**
 * Answers a question from the files: the sentence or list item sharing most of the
 * question's words (a "when" answer must hold a date, a "who" answer a name, a "how many"
 * one a number; "next" prefers a statement that says "next"), with its source. When none
 * shares at least half of them, says the files do not answer it.
 */
export function answerQuestion(question: string, sources: SourceText[]): string {
  const q = question.trim();
  const wanted = [...new Set(stems(q))];
  const when = /^(?:when|quand|cuándo|cuando)\b/i.test(q) || /\b(?:what|which) (?:date|day|time)\b/i.test(q);
  const who = /^(?:who|whom|whose|qui|quién|quien)\b/i.test(q);
  const howMany = /^(?:how (?:many|much)|combien|cuántos?|cuántas?)\b/i.test(q);
  const next = /\b(?:next|prochaine?|próxim[oa])\b/i.test(q);
  let best: { text: string; file: string; score: number } | undefined;
  for (const source of sources) {
    for (const section of outlineOf(source.text).sections) {
      const texts = section.blocks.flatMap((b) => (b.kind === "paragraph" ? b.sentences : b.kind === "list" ? b.items.map((i) => i.text) : b.kind === "table" ? b.rows.map((r) => r.join(" ")) : []));
      for (const text of texts) {
        if (when && !hasDate(text)) continue;
        if (who && !/(?:^|\s)[A-Z][\p{L}'-]+/u.test(text)) continue;
        if (howMany && !/\d/.test(text)) continue;
        const have = new Set(stems(`${section.title} ${text}`));
        let score = wanted.filter((w) => have.has(w)).length;
        if (next && new RegExp(`\\b${escapeRe("next")}\\b|\\bprochaine?\\b|\\bpróxim[oa]\\b`, "i").test(text)) score += 0.5;
        if (!best || score > best.score) best = { text, file: source.file, score };
      }
    }
  }
  if (!best || best.score < Math.max(1, wanted.length / 2)) {
    return `The files I read (${sources.map((s) => s.file).join(", ") || "none"}) do not answer "${q}".`;
  }
  return `${best.text.replace(/\s*$/, "")} (source: ${best.file})`;
}

/** A capability the task needs that no agent of the flow has. */
export interface Missing {
  capability: string;
  reason: string;
}

/** Chat and social services no built-in tool posts to. */
const CHAT = /\b(slack|microsoft teams|teams channel|discord|telegram|whatsapp|signal|sms|text message|twitter|tweet|mastodon|linkedin|jira|trello|github issue)\b/i;

/**
 * What the task needs that none of `tools` can do: sending email, posting to a chat or
 * social service, translating, running code in a language no tool runs (JavaScript needs
 * `run_javascript`), fetching a URL without `http_request`, printing.
 */
export function missingCapabilities(task: string, tools: Set<string>): Missing[] {
  const out: Missing[] = [];
  const has = (re: RegExp) => [...tools].some((t) => re.test(t));
  if ((/\b(?:e-?mail|courriel|correo)\b/i.test(task) || /[\w.+-]+@[\w-]+\.[\w.]+/.test(task) || /^\s*mail\b/i.test(task)) && !has(/mail/i)) {
    out.push({ capability: "send email", reason: "no tool of this flow sends email" });
  }
  const chat = CHAT.exec(task)?.[1];
  if (chat && /\b(?:post|send|share|publish|tweet|message|notify|envoie|publie|partage|envía|publica|comparte)\b/i.test(task) && !has(new RegExp(chat.split(" ")[0] ?? chat, "i"))) {
    const name = chat.charAt(0).toUpperCase() + chat.slice(1);
    out.push({ capability: `post to ${name}`, reason: `no tool of this flow reaches ${name}` });
  }
  if (/\b(?:translate|traduis|traduire|traduce|traducir)\b/i.test(task)) out.push({ capability: "translate text", reason: "the offline model cannot translate; configure a real model provider" });
  const lang = /\b(?:with|in|using|en|con|avec)\s+(javascript|js|node(?:\.js)?|python|ruby|bash|shell|sql|excel)\b/i.exec(task)?.[1];
  if (lang && /\b(?:compute|calculate|evaluate|run|execute|calcule|calcula|exécute|ejecuta)\b/i.test(task)) {
    const js = /^(?:javascript|js|node)/i.test(lang);
    if (!js || !tools.has("run_javascript")) {
      const name = js ? "JavaScript" : lang.charAt(0).toUpperCase() + lang.slice(1);
      out.push({ capability: `run ${name}`, reason: js ? "no agent of this flow has the run_javascript tool" : `no tool of this flow runs ${name}` });
    }
  }
  if (/https?:\/\/\S+/.test(task) && /\b(?:fetch|get|download|open|visit|browse|scrape|read)\b/i.test(task) && !tools.has("http_request")) {
    out.push({ capability: "fetch web pages", reason: "no agent of this flow has the http_request tool" });
  }
  if (/\bprint(?:er)?\b.*\b(?:printer|paper)\b|\bimprim/i.test(task)) out.push({ capability: "print", reason: "no tool of this flow prints" });
  return out;
}

/**
 * The task without the parts `missing` names, for planning the rest: email addresses, the
 * delivery phrase ("by email", "to the team Slack channel") and the delivery verb.
 */
export function withoutDelivery(task: string): string {
  return task
    .replace(/[\w.+-]+@[\w-]+\.[\w.]+/g, " ")
    .replace(/\b(?:by|via|par|por)\s+(?:e-?mail|courriel|correo)\b/gi, " ")
    .replace(
      /\b(?:to|on|in|into|sur|dans|en|a)\s+(?:the\s+|our\s+|my\s+)?(?:[\w#-]+\s+){0,2}(?:slack|teams|discord|telegram|whatsapp|twitter|mastodon|linkedin)\b(?:\s+(?:channel|chat|group|feed))?/gi,
      " ",
    )
    .replace(/^\s*(?:e-?mail|mail|send|post|share|publish|tweet|envoie|publie|envía|publica)\b/i, " ")
    .replace(/\b(?:to|à|a)\s*$/i, " ")
    .replace(/\s+/g, " ")
    .trim();
}
