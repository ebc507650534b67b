import type { NextConfig } from "next";

const config: NextConfig = {
  // better-sqlite3 is native; Prisma's generated client loads its wasm query compiler.
  // QuickJS (run_javascript) finds its .wasm file next to its own module file: bundled, that
  // path would point into .next and the sandbox could not start.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "quickjs-emscripten-core", "@jitl/quickjs-wasmfile-release-sync"],
  typedRoutes: false,
};

export default config;
