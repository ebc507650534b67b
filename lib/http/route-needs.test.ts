import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CAPABILITIES } from "../auth/roles";

/**
 * Every route under app/api that acts in one workspace names the capability it needs to the
 * route wrapper (lib/http/with-user.ts `need`; docs/security.md "Roles and powers"), so the
 * wrapper resolves the resource and the role once and refuses before the handler runs. The
 * routes below act in no single workspace (the account, the instance, or every workspace of
 * the user at once) and say why; the LangGraph-compatible API (app/api/langgraph) has its own
 * key-scope auth, and auth, health and the OpenAPI document need no user.
 */

const root = path.resolve(__dirname, "../..");

/** Route files (relative to app/api) that act in no single workspace, with the reason. */
const NO_WORKSPACE: Record<string, string> = {
  "admin/users/route.ts": "instance admin: accounts of the whole instance (accountLevel)",
  "approvals/route.ts": "the inbox: approvals of every workspace of the user, filtered by membership in the query",
  "approvals/events/route.ts": "the inbox's live feed: every workspace of the user, each event checked for visibility",
  "flows/route.ts": "a new flow: the workspace is optional (the user's own by default); workspaceForNewFlow checks edit there",
  "invitations/route.ts": "the user's own invitations, addressed to their email",
  "invitations/[invitationId]/accept/route.ts": "the invitee is not a member yet: the invitation is addressed to their email",
  "invitations/[invitationId]/decline/route.ts": "the invitee is not a member yet: the invitation is addressed to their email",
  "keys/route.ts": "the user's own API keys (sessionOnly)",
  "keys/[keyId]/route.ts": "the user's own API keys (sessionOnly)",
  "mcp/commands/route.ts": "the operator's stdio command list, the same for everyone",
  "settings/providers/route.ts": "the user's own model providers (accountLevel)",
  "workspaces/route.ts": "the list of the user's workspaces",
};

/** Folders of app/api outside the rule: their own auth, or no user at all. */
const OUTSIDE = ["langgraph/", "auth/", "health/", "openapi.json/", "_openapi/"];

function routeFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(root, rel)).isDirectory()) return routeFiles(rel);
    return name === "route.ts" ? [rel.slice("app/api/".length)] : [];
  });
}

/** Each `export const METHOD = withUser({ ... }` of a route file, with the options text. */
function handlers(file: string): { method: string; options: string }[] {
  const text = readFileSync(path.join(root, "app/api", file), "utf8");
  return [...text.matchAll(/export const (GET|POST|PUT|PATCH|DELETE) = withUser\((\{.*?\}),\s*async/gs)].map((m) => ({ method: m[1] ?? "", options: m[2] ?? "" }));
}

const files = routeFiles("app/api").filter((f) => !OUTSIDE.some((o) => f.startsWith(o)));

describe("routes name the capability they need", () => {
  it("finds the routes (the walk itself works)", () => {
    expect(files.length).toBeGreaterThan(40);
    expect(files).toContain("threads/[threadId]/stream/route.ts");
  });

  it("every handler of a workspace route declares `need` with a capability of the role table and a resource", () => {
    const missing: string[] = [];
    for (const file of files.filter((f) => !(f in NO_WORKSPACE))) {
      const found = handlers(file);
      if (found.length === 0) missing.push(`${file}: no withUser handler found`);
      for (const h of found) {
        const need = /need: \{ capability: "(\w+)",(?: refusal: [A-Z_]+,)? (thread|flow|workspace|approval|fact): /.exec(h.options);
        if (!need || !(CAPABILITIES as readonly string[]).includes(need[1] ?? "")) missing.push(`${file} ${h.method}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("the routes acting in no single workspace exist and declare no need", () => {
    for (const file of Object.keys(NO_WORKSPACE)) {
      expect(files).toContain(file);
      for (const h of handlers(file)) expect(h.options, `${file} ${h.method}`).not.toContain("need:");
    }
  });

  it("the role table and membership lookups live in lib/auth: nothing imports them from lib/db", () => {
    const names = /\b(Role|Capability|can|requireCapability|permissionOf|roleIn|rolesOf|roleOf|membershipWhere|memberOf|threadAccess|flowAccess)\b/;
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(path.join(root, dir))) {
        const rel = `${dir}/${name}`;
        if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
        else if (/\.tsx?$/.test(name)) {
          for (const m of readFileSync(path.join(root, rel), "utf8").matchAll(/import (?:type )?\{([^}]*)\} from "([^"]*db\/workspaces|\.\/workspaces)"/g)) {
            if (names.test(m[1] ?? "") && (m[2] !== "./workspaces" || rel.startsWith("lib/db/"))) offenders.push(rel);
          }
        }
      }
    };
    for (const dir of ["lib", "app", "components", "tests"]) walk(dir);
    expect(offenders).toEqual([]);
  });

  it("the role table is pure: lib/auth/roles.ts reaches no database and no secret", () => {
    const text = readFileSync(path.join(root, "lib/auth/roles.ts"), "utf8");
    expect(text).not.toContain("server-only");
    expect([...text.matchAll(/from "([^"]+)"/g)].map((m) => m[1])).toEqual(["zod", "../errors"]);
  });
});
