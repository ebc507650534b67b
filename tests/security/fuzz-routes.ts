import { readFileSync } from "node:fs";
import path from "node:path";
import { apiRoutes, type Method } from "./route-files";

/**
 * The route files as the fuzzer needs them: the shared listing of `app/api/**\/route.ts`
 * (tests/security/route-files.ts, so a new route is fuzzed without anyone listing it) with,
 * per method, whether it goes through the shared wrapper and declares a JSON body.
 */
export interface RouteFile {
  /** Path from the repository root, e.g. `app/api/threads/[threadId]/stream/route.ts`. */
  file: string;
  /** URL template, e.g. `/api/threads/[threadId]/stream`. */
  template: string;
  /** Dynamic segments in order: `threadId`, or `...nextauth` for a catch-all. */
  segments: string[];
  /** Exported handlers (GET, POST, PUT, PATCH, DELETE). */
  methods: Method[];
  /** Methods whose `withUser` options declare a JSON body schema. */
  bodyMethods: Method[];
  /** Methods that go through the shared wrapper (`withUser`). */
  wrappedMethods: Method[];
}

/** The text of `export const M = withUser({ ... }` up to the handler, or null. */
function wrapperOptions(source: string, method: string): string | null {
  const m = new RegExp(`export\\s+const\\s+${method}\\s*=\\s*with\\w+\\(\\s*(\\{[\\s\\S]*?\\})\\s*,\\s*async`).exec(source);
  return m?.[1] ?? null;
}

/** Every route file under `<root>/app/api`, sorted by template. */
export function discoverRoutes(root: string): RouteFile[] {
  return apiRoutes(path.join(root, "app")).map((r) => {
    const source = readFileSync(path.resolve(root, r.file), "utf8");
    const wrappedMethods = r.methods.filter((m) => wrapperOptions(source, m) !== null);
    return {
      file: path.relative(root, path.resolve(root, r.file)).split(path.sep).join("/"),
      template: r.pattern,
      segments: [...r.pattern.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1] ?? ""),
      methods: r.methods,
      bodyMethods: wrappedMethods.filter((m) => /\bbody\s*:/.test(wrapperOptions(source, m) ?? "")),
      wrappedMethods,
    };
  });
}

/** Fills a template's segments from `values` (already URL-encoded). */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\[([^\]]+)\]/g, (_m, name: string) => values[name] ?? "missing");
}
