import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/**
 * The verification snippet of docs/webhooks.md ("Verifying a webhook"), loaded from the
 * document itself, so that tests run exactly what receivers copy.
 * @param root the repository root (default: the working directory).
 * @throws Error when the document has no snippet between its markers.
 */
export function docsVerifySnippet(root = process.cwd()): (secret: string, headers: Record<string, string>, rawBody: string, toleranceSec?: number) => boolean {
  const doc = readFileSync(path.join(root, "docs", "webhooks.md"), "utf8");
  const m = /<!-- verify-snippet:start -->\s*```js\n([\s\S]*?)```\s*<!-- verify-snippet:end -->/.exec(doc);
  if (!m?.[1]) throw new Error("docs/webhooks.md has no verify snippet between its markers");
  const load = new Function("require", `${m[1]}\nreturn verifyWebhook;`) as (req: NodeJS.Require) => ReturnType<typeof docsVerifySnippet>;
  return load(createRequire(path.join(root, "package.json")));
}
