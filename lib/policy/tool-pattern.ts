import picomatch from "picomatch/posix";

/** Compiled tool patterns; policies are few, so the cache stays small (cleared past 500). */
const compiled = new Map<string, (name: string) => boolean>();

/**
 * Whether a policy rule's tool pattern covers a tool name (docs/architecture.md#policies). The pattern is a
 * tool name or a glob over tool names, as `PolicyRule.tool` allows (`[a-z*][a-z0-9_*]*`):
 * `*` matches any run of characters, so `*` covers every tool, `*_file` covers `write_file`
 * and `read_*` covers `read_file`. Matching is exact and case-sensitive (picomatch, POSIX
 * mode; tool names hold no `/`). Safe in the browser: no Node built-ins.
 */
export function toolMatches(pattern: string, tool: string): boolean {
  if (pattern === tool || pattern === "*") return true;
  if (!pattern.includes("*")) return false;
  let test = compiled.get(pattern);
  if (!test) {
    if (compiled.size >= 500) compiled.clear();
    test = picomatch(pattern, { dot: true, nonegate: true, noextglob: true, nobrace: true });
    compiled.set(pattern, test);
  }
  return test(tool);
}
