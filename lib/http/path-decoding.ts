/**
 * True when a URL path cannot be percent-decoded into text: a `%` not followed by two hex
 * digits, or escapes whose bytes are not UTF-8 (a lone surrogate's bytes `%ED%A0%80`, an
 * overlong `%C0%AF`, a stray `%FF`). Next.js 16 decodes dynamic route segments with
 * `decodeURIComponent` and answers such paths with a 500 (vercel/next.js#92527); the proxy
 * refuses them first with a 400 (docs/security.md "Input limits").
 * @param pathname the raw path as received, still percent-encoded (`/api/threads/%zz`).
 */
export function undecodablePath(pathname: string): boolean {
  if (!pathname.includes("%")) return false;
  for (const segment of pathname.split("/")) {
    try {
      decodeURIComponent(segment);
    } catch {
      return true;
    }
  }
  return false;
}
