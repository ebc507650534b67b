import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The app's route handlers and pages as the file system declares them, so that the
 * security suite notices a new route the day it is added (docs/security.md "Threat model":
 * every route that takes an id is tried by another tenant).
 */

/** An HTTP method a route handler may export. */
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** One `app/api/**\/route.ts`: its URL pattern (e.g. `/api/threads/[threadId]`) and exported methods. */
export interface RouteFile {
  pattern: string;
  methods: Method[];
  file: string;
}

const METHODS: readonly Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

function filesNamed(root: string, name: string): string[] {
  return (readdirSync(root, { recursive: true }) as string[]).filter((f) => path.basename(f) === name).map((f) => path.join(root, f));
}

/** `app/(app)/threads/[threadId]/page.tsx` -> `/threads/[threadId]` (route groups dropped). */
function urlPattern(file: string, appDir: string): string {
  const segments = path
    .relative(appDir, path.dirname(file))
    .split(path.sep)
    .filter((s) => s !== "" && !/^\(.*\)$/.test(s));
  return `/${segments.join("/")}`;
}

/** The methods a route file exports: `export const GET =`, `export async function POST(`, `export const { GET, POST } =`. */
export function exportedMethods(source: string): Method[] {
  const found = new Set<Method>();
  for (const m of source.matchAll(/export\s+(?:const|let|async\s+function|function)\s+([A-Z]+)\b/g)) {
    if (METHODS.includes(m[1] as Method)) found.add(m[1] as Method);
  }
  for (const m of source.matchAll(/export\s+const\s*\{([^}]*)\}/g)) {
    for (const name of (m[1] ?? "").split(",").map(
      (s) =>
        s
          .trim()
          .split(/\s*:\s*/)
          .pop() ?? "",
    )) {
      if (METHODS.includes(name as Method)) found.add(name as Method);
    }
  }
  return METHODS.filter((m) => found.has(m));
}

/**
 * Every route handler under `app/api`, sorted by pattern.
 * @param appDir the Next.js `app` directory (default: `./app` of the working directory).
 */
export function apiRoutes(appDir = path.resolve("app")): RouteFile[] {
  return filesNamed(path.join(appDir, "api"), "route.ts")
    .map((file) => ({ pattern: urlPattern(file, appDir), methods: exportedMethods(readFileSync(file, "utf8")), file: path.relative(process.cwd(), file) }))
    .sort((a, b) => a.pattern.localeCompare(b.pattern));
}

/** Every page whose URL has a dynamic segment (`[id]`), as URL patterns, sorted. */
export function dynamicPages(appDir = path.resolve("app")): string[] {
  return filesNamed(appDir, "page.tsx")
    .map((file) => urlPattern(file, appDir))
    .filter((p) => p.includes("["))
    .sort();
}
