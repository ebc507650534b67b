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

/**
 * CORS for the LangGraph Platform API (docs/langgraph-api.md#cors): Agent Inbox and other
 * browser clients call it from their own origin with an API key (`x-api-key` or
 * `Authorization`). Any origin may, because credentials are never allowed: a browser sends no
 * cookie cross-origin without `Access-Control-Allow-Credentials`, so a page elsewhere can act
 * only with a key it holds, never with a visitor's session. The rest of the app stays
 * same-origin. Preflights get Next.js's own OPTIONS answer with these headers.
 */
const langgraphCors = [
  { key: "Access-Control-Allow-Origin", value: "*" },
  { key: "Access-Control-Allow-Methods", value: "GET, POST, PUT, PATCH, DELETE, OPTIONS" },
  { key: "Access-Control-Allow-Headers", value: "authorization, x-api-key, content-type, accept, last-event-id, x-auth-scheme, x-request-id, x-user-id" },
  { key: "Access-Control-Expose-Headers", value: "content-location, location" },
  { key: "Access-Control-Max-Age", value: "600" },
];

const config: NextConfig = {
  // better-sqlite3 is native; Prisma's generated client loads its wasm query compiler.
  // QuickJS (run_javascript) finds its .wasm file next to its own module file: bundled, that
  // path would point into .next and the sandbox could not start.
  // undici (the guarded outbound client, lib/net) loads optional Node built-ins lazily; it runs as Node installed it.
  // A profiling build (`PROFILE_BUILD=1 npx next build`) keeps the server's function names, so
  // that a CPU profile (`bench:load` with LOAD_CPU_PROF, docs/benchmarks.md) reads as the source.
  experimental: { serverMinification: process.env.PROFILE_BUILD !== "1" },
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "quickjs-emscripten-core", "@jitl/quickjs-wasmfile-release-sync", "undici"],
  typedRoutes: false,
  // scripts/test.sh type-checks the whole project (`next typegen`, then `tsc --noEmit`, test files
  // included) before it builds; there the build's own check, a subset of that one, is skipped
  // (NEXT_BUILD_SKIP_TYPECHECK=1, docs/testing.md "What keeps it fast"). Every other build checks.
  typescript: { ignoreBuildErrors: process.env.NEXT_BUILD_SKIP_TYPECHECK === "1" },
  poweredByHeader: false,
  async headers() {
    return [
      { source: "/:path*", headers: securityHeaders },
      { source: "/api/langgraph/:path*", headers: langgraphCors },
    ];
  },
};

export default config;
