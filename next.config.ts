import type { NextConfig } from "next";

/**
 * Content Security Policy (docs/security.md "Sign-in" and "Threat model"): scripts, styles,
 * images, fonts and requests from this origin only; no plugins; no framing by any site
 * (clickjacking of approval cards); forms post to this origin only. Next.js's inline
 * bootstrap scripts and React Flow's inline styles need 'unsafe-inline'; `next dev` also
 * needs 'unsafe-eval' for its hot reloading, which production never gets.
 */
const csp = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${process.env.NODE_ENV === "production" ? "" : " 'unsafe-eval'"}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** Headers every response carries. */
const securityHeaders = [
  { key: "Content-Security-Policy", value: csp },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
];

const config: NextConfig = {
  // better-sqlite3 is native; Prisma's generated client loads its wasm query compiler.
  // QuickJS (run_javascript) finds its .wasm file next to its own module file: bundled, that
  // path would point into .next and the sandbox could not start.
  // undici (the guarded outbound client, lib/net) loads optional Node built-ins lazily; it runs as Node installed it.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "quickjs-emscripten-core", "@jitl/quickjs-wasmfile-release-sync", "undici"],
  typedRoutes: false,
  poweredByHeader: false,
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default config;
