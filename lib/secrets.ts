import "server-only";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { env } from "./env";

const cache = new Map<string, string>();

/**
 * A server secret that persists across restarts: `fromEnv` when set, else the contents of
 * `<SECRETS_DIR>/<name>.key`, created on first use with 32 random bytes (base64url, 43
 * chars) and mode 0600. Used for the approval HMAC key (docs/architecture.md#approvals) and the session key.
 * @throws Error when the secrets directory cannot be created or read.
 */
export function serverSecret(name: "approval" | "auth" | "provider-keys", fromEnv?: string): string {
  if (fromEnv) return fromEnv;
  const hit = cache.get(name);
  if (hit) return hit;
  const dir = path.resolve(env().SECRETS_DIR);
  const file = path.join(dir, `${name}.key`);
  let value: string;
  try {
    value = readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    value = randomBytes(32).toString("base64url");
    try {
      writeFileSync(file, value, { mode: 0o600, flag: "wx" });
    } catch {
      // Another process won the race: use its key.
      value = readFileSync(file, "utf8").trim();
    }
    chmodSync(file, 0o600);
  }
  cache.set(name, value);
  return value;
}
