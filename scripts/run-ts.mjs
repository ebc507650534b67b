// Runs a TypeScript script of the project (seed, benchmarks) under plain Node with jiti.
// lib/ modules that touch the database start with `import "server-only"`, which throws
// outside React Server Components; here it resolves to its empty module, as it does in
// route handlers and in vitest (vitest.config.ts). Usage: node scripts/run-ts.mjs FILE.ts
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createJiti } from "jiti";

const file = process.argv[2];
if (!file) {
  console.error("usage: node scripts/run-ts.mjs FILE.ts");
  process.exit(2);
}
// Benchmarks log at `warn` unless asked (LOG_LEVEL=info npm run bench:…): a line per tool
// call would bury their figures.
if (path.relative(fileURLToPath(new URL("../bench/", import.meta.url)), path.resolve(file)).split(path.sep)[0] !== "..") process.env.LOG_LEVEL ??= "warn";
const empty = fileURLToPath(new URL("../node_modules/server-only/empty.js", import.meta.url));
const jiti = createJiti(import.meta.url, { alias: { "server-only": empty } });
await jiti.import(path.resolve(file));
