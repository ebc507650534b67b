import "server-only";
import { serverSecret } from "../secrets";

/** The session-signing key: AUTH_SECRET when set, else a persisted generated key. */
export function secretsEnv(): string {
  return serverSecret("auth", process.env.AUTH_SECRET || undefined);
}
