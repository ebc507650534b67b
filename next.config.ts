import type { NextConfig } from "next";

const config: NextConfig = {
  // better-sqlite3 is native; Prisma's generated client loads its wasm query compiler.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3"],
  typedRoutes: false,
};

export default config;
