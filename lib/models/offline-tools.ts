import { field, quote } from "./offline-text";

/**
 * The offline model's rules for the tools that are not file tools, shared by its
 * planner (which agent gets the step) and its executor (which call to make).
 */

/** A tool call the offline model decided on. */
export interface ToolChoice {
  toolName: string;
  input: Record<string, unknown>;
}

/** The code of a "compute/evaluate/run" step: a fenced block or an inline `code` span. */
function codeInBackticks(text: string): string | undefined {
  const fenced = /```(?:javascript|js)?[ \t]*\n?([\s\S]*?)```/i.exec(text);
  if (fenced?.[1]?.trim()) return fenced[1].trim();
  return /`([^`]+)`/.exec(text)?.[1]?.trim() || undefined;
}

/**
 * The rules for the non-file tools, tried before the file rules (a planner's "Answer: "
 * prefix is ignored): "use <tool> with <JSON object>" calls any tool (MCP tools too);
 * "remember that X" -> remember; "what do you remember about X" / "recall X" -> recall;
 * "fetch <url>" / "GET <url>" -> http_request; "run javascript: <code>", code in
 * backticks after compute/evaluate/run, or "compute <expression> with JavaScript" ->
 * run_javascript; "search the files for X", "where does notes.md say X?" or "where do the
 * files mention X?" -> search_files (docs/library.md), only when `tools` (the tools at hand;
 * absent: any) has it, so a flow without it keeps answering from the files it reads.
 */
export function chooseOtherTool(task: string, tools?: ReadonlySet<string>): ToolChoice | undefined {
  const text = task.replace(/^answer:\s*/i, "").trim();
  const search = !tools || tools.has("search_files") ? searchChoice(text) : undefined;
  if (search) return search;
  const use = /^use ([A-Za-z][\w.-]*) with (\{[\s\S]*\})\s*\.?$/i.exec(text);
  if (use?.[1] && use[2]) {
    try {
      const input: unknown = JSON.parse(use[2]);
      if (input && typeof input === "object" && !Array.isArray(input)) return { toolName: use[1], input: input as Record<string, unknown> };
    } catch {
      // Not JSON: the other rules decide.
    }
  }
  const remembered = /^(?:please\s+)?remember(?:\s+that)?\s*:?\s+([\s\S]+)$/i.exec(text);
  if (remembered?.[1]) return { toolName: "remember", input: { content: remembered[1].trim() } };
  const asked = /^(?:what do you (?:remember|know) about|recall)\s+([\s\S]+?)\s*\??$/i.exec(text);
  if (asked?.[1]) return { toolName: "recall", input: { query: asked[1] } };
  const url = /^(?:fetch|get|download)\b[^\n]*?(https?:\/\/[^\s"'<>`]+)/i.exec(text)?.[1]?.replace(/[.,;:!?)]+$/, "");
  if (url) return { toolName: "http_request", input: { url, method: "GET" } };
  const spelled = /^(?:compute|evaluate|calculate|run)\s+([\s\S]+?)\s+(?:with|in|using)\s+(?:javascript|js|node(?:\.js)?)\s*[.!]?$/i.exec(text)?.[1];
  const script = /^run (?:javascript|js)\s*:\s*([\s\S]+)$/i.exec(text)?.[1] ?? (/^(?:compute|evaluate|calculate|run)\b/i.test(text) ? (codeInBackticks(text) ?? spelled) : undefined);
  if (script?.trim()) return { toolName: "run_javascript", input: { code: codeInBackticks(script) ?? script.trim() } };
  return undefined;
}

/** The search_files call a question asks for (see {@link chooseOtherTool}), or undefined. */
function searchChoice(text: string): ToolChoice | undefined {
  const clean = (q: string) =>
    q
      .trim()
      .replace(/^["'“]|["'”]$/g, "")
      .trim();
  const searched = /^(?:please\s+)?(?:search|grep)\s+(?:in\s+)?(?:the\s+|all\s+(?:the\s+)?|my\s+)?(?:files|workspace|library|documents|docs)\s+(?:for|about)\s+([\s\S]+?)\s*[.?!]?$/i.exec(text);
  if (searched?.[1]) return { toolName: "search_files", input: { query: clean(searched[1]) } };
  const where = /^where\s+(?:does|do|did)\s+(?:the\s+)?([\w./-]+?)\s+(?:say|mention|talk about|state|describe|discuss)\s+([\s\S]+?)\s*\??$/i.exec(text);
  if (where?.[1] && where[2]) {
    const what = where[1];
    const whole = /^(?:files?|documents?|docs|workspace|library|notes)$/i.test(what);
    return { toolName: "search_files", input: { query: clean(where[2]), ...(whole || !/\.\w+$/.test(what) ? {} : { path: what }) } };
  }
  return undefined;
}

/** What a step of the non-file tools (http_request, run_javascript, remember, recall) produced, in words. */
export function describeOtherTool(toolName: string, input: Record<string, unknown>, v: unknown): string | undefined {
  switch (toolName) {
    case "http_request": {
      const headers = field(v, "headers");
      const type = field(headers, "content-type");
      const cut = field(v, "truncated") === true ? ", cut at the flow's size limit" : "";
      const body = field(v, "body");
      const summary = `${String(input.method ?? "GET")} ${String(field(v, "url") ?? input.url)} returned ${String(field(v, "status"))} (${type ? `${String(type)}, ` : ""}${String(field(v, "bytes") ?? 0)} bytes${cut})`;
      return typeof body === "string" && body.length > 0 ? `${summary}:\n${quote(body)}` : `${summary}.`;
    }
    case "run_javascript": {
      const logs = field(v, "logs");
      const printed = Array.isArray(logs) && logs.length > 0 ? `\nConsole:\n${logs.map((l) => `- ${String(l)}`).join("\n")}` : "";
      return `The script returned: ${quote(JSON.stringify(field(v, "result") ?? null))}${printed}`;
    }
    case "remember":
      return field(v, "created") === false
        ? `Already remembered: "${String(input.content)}" (fact ${String(field(v, "id"))}).`
        : `Remembered: "${String(input.content)}" (fact ${String(field(v, "id"))}).`;
    case "recall": {
      const facts = field(v, "facts");
      if (!Array.isArray(facts) || facts.length === 0) return `Nothing is remembered about "${String(input.query)}".`;
      return `Remembered about "${String(input.query)}":\n${facts.map((f) => `- ${String(field(f, "content"))}`).join("\n")}`;
    }
    case "search_files": {
      const results = field(v, "results");
      if (!Array.isArray(results) || results.length === 0) return `Nothing in the files matches "${String(input.query)}".`;
      const cite = (r: unknown) => {
        const lines = field(r, "lines");
        const [from, to] = Array.isArray(lines) ? lines : [];
        const text = String(field(r, "text") ?? "").replace(/\s*\n\s*/g, " ");
        return `- ${String(field(r, "file"))}:${String(from)}-${String(to)}: "${text}"`;
      };
      return `Found in the files for "${String(input.query)}" (file:lines):\n${results.map(cite).join("\n")}`;
    }
    default:
      return undefined;
  }
}
