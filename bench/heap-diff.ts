/**
 * `node scripts/run-ts.mjs bench/heap-diff.ts A.heapsnapshot B.heapsnapshot [top]`: which
 * constructors grew between two V8 heap snapshots (bench/heap.ts takes them). Groups the
 * nodes of each snapshot by type and name (a constructor's name for objects, the source for
 * closures, "(string)" for strings, ...), and prints the `top` (25) groups whose self size grew
 * most from A to B: count and self size (bytes) in each, and the difference.
 */
import { readFileSync } from "node:fs";

/** Count and self size (bytes) of one group of heap nodes. */
export interface HeapGroup {
  count: number;
  bytes: number;
}

/**
 * Groups a heap snapshot's nodes by `type:name` (the snapshot format of V8's
 * `v8.writeHeapSnapshot` / `--heapsnapshot-signal`: flat `nodes` of `node_fields` each).
 * Strings, numbers and code are grouped by type alone (their names are their contents).
 */
export function heapGroups(json: string): Map<string, HeapGroup> {
  const snap = JSON.parse(json) as { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[]; strings: string[] };
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const iType = fields.indexOf("type");
  const iName = fields.indexOf("name");
  const iSize = fields.indexOf("self_size");
  const out = new Map<string, HeapGroup>();
  const byTypeOnly = new Set(["string", "concatenated string", "sliced string", "number", "code", "hidden", "array", "object shape", "bigint"]);
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + iType] ?? 0] ?? "?";
    const name = byTypeOnly.has(type) ? "" : (snap.strings[snap.nodes[i + iName] ?? 0] ?? "").slice(0, 80);
    const key = `${type}:${name}`;
    const g = out.get(key) ?? { count: 0, bytes: 0 };
    g.count += 1;
    g.bytes += snap.nodes[i + iSize] ?? 0;
    out.set(key, g);
  }
  return out;
}

/** Total self size (bytes) and node count of a snapshot's groups. */
export function heapTotal(groups: Map<string, HeapGroup>): HeapGroup {
  let count = 0;
  let bytes = 0;
  for (const g of groups.values()) {
    count += g.count;
    bytes += g.bytes;
  }
  return { count, bytes };
}

/** The `top` groups whose self size grew most from `a` to `b`, as table lines. */
export function heapDiff(a: Map<string, HeapGroup>, b: Map<string, HeapGroup>, top = 25): string[] {
  const rows = [...new Set([...a.keys(), ...b.keys()])].map((k) => {
    const x = a.get(k) ?? { count: 0, bytes: 0 };
    const y = b.get(k) ?? { count: 0, bytes: 0 };
    return { k, x, y, d: y.bytes - x.bytes, dc: y.count - x.count };
  });
  rows.sort((p, q) => q.d - p.d);
  const kb = (n: number) => (n / 1024).toFixed(0);
  return [
    "| group (type:name) | count A | count B | +count | KB A | KB B | +KB |",
    "|---|---|---|---|---|---|---|",
    ...rows.slice(0, top).map((r) => `| ${r.k.replaceAll("|", "\\|").replaceAll("\n", " ")} | ${r.x.count} | ${r.y.count} | ${r.dc} | ${kb(r.x.bytes)} | ${kb(r.y.bytes)} | ${kb(r.d)} |`),
  ];
}

if (process.argv[2]?.endsWith("heap-diff.ts")) {
  const [fileA, fileB, top] = process.argv.slice(3);
  if (!fileA || !fileB) {
    console.error("usage: bench/heap-diff.ts A.heapsnapshot B.heapsnapshot [top]");
    process.exit(2);
  }
  const a = heapGroups(readFileSync(fileA, "utf8"));
  const b = heapGroups(readFileSync(fileB, "utf8"));
  const [ta, tb] = [heapTotal(a), heapTotal(b)];
  console.log(`heap A ${(ta.bytes / 2 ** 20).toFixed(1)} MB in ${ta.count} nodes; heap B ${(tb.bytes / 2 ** 20).toFixed(1)} MB in ${tb.count} nodes`);
  for (const l of heapDiff(a, b, Number(top ?? 25))) console.log(l);
}
