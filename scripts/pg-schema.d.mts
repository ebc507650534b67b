/**
 * The PostgreSQL schema text for the SQLite schema text (scripts/pg-schema.mjs): provider,
 * placeholder url and generator output swapped, a "generated" header added.
 * @throws Error when a line it rewrites is missing from the source.
 */
export function postgresSchema(sqlite: string): string;
