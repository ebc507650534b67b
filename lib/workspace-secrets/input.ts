import { z } from "zod";
import { canonicalSecretHost, SECRET_NAME } from "./references";

/**
 * What an owner sends to add or replace a workspace secret (docs/secrets.md). Messages say
 * what to write; lib/http/errors.ts prefixes the field.
 */

/** Largest value, bytes of UTF-8 (8 KB). */
export const MAX_SECRET_BYTES = 8192;
/** Most host entries one secret may name. */
export const MAX_SECRET_HOSTS = 20;

/** A secret's name: `^[A-Z][A-Z0-9_]{0,63}$`. */
export const SecretName = z.string().regex(SECRET_NAME, "an upper-case letter, then upper-case letters, digits and _ (at most 64), e.g. API_TOKEN");

/** A value: 1 to 8,192 bytes, one line (it is sent in a header). */
export const SecretValue = z
  .string()
  .min(1, "enter the value")
  .refine((v) => Buffer.byteLength(v, "utf8") <= MAX_SECRET_BYTES, `at most ${MAX_SECRET_BYTES} bytes (8 KB)`)
  .refine((v) => !/[\r\n\0]/.test(v), "one line: no line breaks or NUL characters (it is sent in a header)");

/** The hosts it may be sent to: 1 to 20 entries, each stored in canonical form, no repeats. */
export const SecretHosts = z
  .array(z.string().max(300))
  .min(1, "name at least one host it may be sent to, e.g. api.example.com")
  .max(MAX_SECRET_HOSTS, `at most ${MAX_SECRET_HOSTS} hosts`)
  .transform((hosts, ctx) => {
    const out: string[] = [];
    hosts.forEach((h, i) => {
      const c = canonicalSecretHost(h);
      if (!c) ctx.addIssue({ code: "custom", path: [i], message: "a host name (api.example.com), *.example.com for its subdomains, or host:port; no scheme or path" });
      else if (!out.includes(c)) out.push(c);
    });
    return out;
  });

/** POST body of `/api/workspaces/:id/secrets`. */
export const SecretInput = z.object({ name: SecretName, value: SecretValue, hosts: SecretHosts }).strict();
export type SecretInput = z.infer<typeof SecretInput>;

/** PUT body of `/api/workspaces/:id/secrets/:name`: a new value, new hosts, or both. */
export const SecretReplace = z
  .object({ value: SecretValue.optional(), hosts: SecretHosts.optional() })
  .strict()
  .refine((b) => b.value !== undefined || b.hosts !== undefined, "send a new value, new hosts, or both");
export type SecretReplace = z.infer<typeof SecretReplace>;
