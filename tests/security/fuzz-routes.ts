import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The route files of the app, found on disk so that a new route is fuzzed without anyone
 * listing it: every `app/api/**\/route.ts`, its URL template and the HTTP methods it exports.
 */
export interface RouteFile {
  /** Path from the repository root, e.g. `app/api/threads/[threadId]/stream/route.ts`. */
  file: string;
  /** URL template, e.g. `/api/threads/[threadId]/stream`. */
  template: string;
  /** Dynamic segments in order: `threadId`, or `...nextauth` for a catch-all. */
  segments: string[];
  /** Exported handlers (GET, POST, PUT, PATCH, DELETE). */
  methods: string[];
  /** Methods whose `withUser` options declare a JSON body schema. */
  bodyMethods: string[];
  /** Methods that go through the shared wrapper (`withUser`). */
  wrappedMethods: string[];
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.name === "route.ts") out.push(p);
  }
  return out;
}

/** The handler methods a route file exports, read from its source. */
export function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(/export\s+(?:const|let)\s+(GET|POST|PUT|PATCH|DELETE)\b/g)) found.add(m[1] ?? "");
  for (const m of source.matchAll(/export\s+(?:async\s+)?function\s+(GET|POST|PUT|PATCH|DELETE)\b/g)) found.add(m[1] ?? "");
  for (const m of source.matchAll(/export\s+const\s*\{([^}]*)\}/g)) for (const name of (m[1] ?? "").split(",")) found.add(name.trim().split(/\s*:\s*/).pop() ?? "");
  for (const m of source.matchAll(/export\s*\{([^}]*)\}/g)) for (const name of (m[1] ?? "").split(",")) found.add(name.trim().split(/\s+as\s+/).pop() ?? "");
  return METHODS.filter((m) => found.has(m));
}

/** The text of `export const M = withUser({ ... }` up to the handler, or null. */
function wrapperOptions(source: string, method: string): string | null {
  const m = new RegExp(`export\\s+const\\s+${method}\\s*=\\s*with\\w+\\(\\s*(\\{[\\s\\S]*?\\})\\s*,\\s*async`).exec(source);
  return m?.[1] ?? null;
}

/** Every route file under `app/api`, sorted by template. */
export function discoverRoutes(root: string): RouteFile[] {
  return walk(path.join(root, "app/api"))
    .map((abs) => {
      const file = path.relative(root, abs).split(path.sep).join("/");
      const template = `/${file.replace(/^app\//, "").replace(/\/route\.ts$/, "")}`
        .split("/")
        .filter((s) => !/^\(.*\)$/.test(s))
        .join("/");
      const segments = [...template.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1] ?? "");
      const source = readFileSync(abs, "utf8");
      const methods = exportedMethods(source);
      const wrappedMethods = methods.filter((m) => wrapperOptions(source, m) !== null);
      const bodyMethods = wrappedMethods.filter((m) => /\bbody\s*:/.test(wrapperOptions(source, m) ?? ""));
      return { file, template, segments, methods, bodyMethods, wrappedMethods };
    })
    .sort((a, b) => a.template.localeCompare(b.template));
}

/** Fills a template's segments from `values` (already URL-encoded). */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\[([^\]]+)\]/g, (_m, name: string) => values[name] ?? "missing");
}
