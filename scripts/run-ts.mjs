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
const empty = fileURLToPath(new URL("../node_modules/server-only/empty.js", import.meta.url));
const jiti = createJiti(import.meta.url, { alias: { "server-only": empty } });
await jiti.import(path.resolve(file));
