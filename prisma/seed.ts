/**
 * Seeds the demo accounts (issue 4 roles), all with DEMO_PASSWORD (default phylactery):
 * DEMO_EMAIL (default demo@phylactery.dev) owns the workspace "Demo workspace", which holds
 * the template flows; DEMO_APPROVER_EMAIL (approver@phylactery.dev) is an approver there and
 * DEMO_VIEWER_EMAIL (viewer@phylactery.dev) a viewer.
 *
 * The demo workspace's library gets the sample files of `templates/library/` (notes.md,
 * release-notes.md, README.md) that the template flows read (docs/library.md "The demo
 * workspace's library"); a file the library has ever had is left as the owner left it.
 *
 * Idempotent: re-running updates the password hashes and adds only what is missing (an
 * account, a membership, a template flow); it never changes a role someone set since. On a
 * database migrated from before issue 4, the demo account's personal workspace
 * (`ws_<userId>`, "<name>'s workspace") becomes "Demo workspace" when it is the only one the
 * account owns.
 *
 * Run with `node scripts/run-ts.mjs prisma/seed.ts` (npm run db:seed), which lets it use
 * lib/db's `server-only` modules.
 */
import bcrypt from "bcryptjs";
import { createDb, type Db } from "../lib/db/client";
import { createFlow } from "../lib/db/flows";
import { env } from "../lib/env";
import { libraryAuditLog } from "../lib/library/audit";
import { seedDemoLibrary } from "../lib/library/demo-library";
import { TEMPLATES } from "../templates";

const WORKSPACE_NAME = "Demo workspace";

/** The demo workspace's id: found, renamed from the migrated personal one, or created. */
async function demoWorkspace(db: Db, userId: string): Promise<string> {
  const mine = await db.membership.findMany({ where: { userId }, include: { workspace: true }, orderBy: { createdAt: "asc" } });
  const named = mine.find((m) => m.workspace.name === WORKSPACE_NAME);
  if (named) return named.workspaceId;
  const owned = mine.filter((m) => m.role === "owner");
  const only = owned.length === 1 ? owned[0] : undefined;
  if (only) {
    await db.workspace.update({ where: { id: only.workspaceId }, data: { name: WORKSPACE_NAME } });
    console.log(`seed: workspace "${only.workspace.name}" renamed to "${WORKSPACE_NAME}"`);
    return only.workspaceId;
  }
  const ws = await db.workspace.create({ data: { name: WORKSPACE_NAME, members: { create: { userId, role: "owner" } } } });
  console.log(`seed: workspace "${WORKSPACE_NAME}" created`);
  return ws.id;
}

/** Creates the account or updates only its password hash; returns its id. */
async function account(db: Db, email: string, name: string, passwordHash: string): Promise<string> {
  const user = await db.user.upsert({ where: { email }, update: { passwordHash }, create: { email, name, passwordHash } });
  return user.id;
}

/** Adds the membership when missing (an existing role is kept); returns the role it has. */
async function member(db: Db, workspaceId: string, userId: string, role: "owner" | "approver" | "viewer"): Promise<string> {
  const m = await db.membership.upsert({ where: { workspaceId_userId: { workspaceId, userId } }, update: {}, create: { workspaceId, userId, role } });
  return m.role;
}

async function main(): Promise<void> {
  const { DEMO_EMAIL, DEMO_PASSWORD, DEMO_APPROVER_EMAIL, DEMO_VIEWER_EMAIL, WORKSPACES_DIR } = env();
  const emails = { demo: DEMO_EMAIL.toLowerCase(), approver: DEMO_APPROVER_EMAIL.toLowerCase(), viewer: DEMO_VIEWER_EMAIL.toLowerCase() };
  if (new Set(Object.values(emails)).size !== 3) {
    throw new Error(`DEMO_EMAIL, DEMO_APPROVER_EMAIL and DEMO_VIEWER_EMAIL must differ (got ${Object.values(emails).join(", ")})`);
  }
  const db = createDb();
  try {
    const passwordHash = await bcrypt.hash(DEMO_PASSWORD, 10);
    const demoId = await account(db, emails.demo, "Demo", passwordHash);
    const workspaceId = await demoWorkspace(db, demoId);
    for (const [templateKey, doc] of Object.entries(TEMPLATES)) {
      if (await db.flow.findFirst({ where: { workspaceId, templateKey } })) continue;
      await createFlow(db, demoId, doc, { templateKey, message: "From template", workspaceId });
      console.log(`seed: template flow "${doc.settings.name}" added to "${WORKSPACE_NAME}"`);
    }
    const added = await seedDemoLibrary(WORKSPACES_DIR, workspaceId, libraryAuditLog(db, workspaceId));
    if (added.length > 0) console.log(`seed: ${added.join(", ")} added to the library of "${WORKSPACE_NAME}"`);
    const roles = {
      demo: await member(db, workspaceId, demoId, "owner"),
      approver: await member(db, workspaceId, await account(db, emails.approver, "Approver", passwordHash), "approver"),
      viewer: await member(db, workspaceId, await account(db, emails.viewer, "Viewer", passwordHash), "viewer"),
    };
    console.log(`seed: accounts ready in "${WORKSPACE_NAME}" (all with the DEMO_PASSWORD):`);
    for (const k of ["demo", "approver", "viewer"] as const) console.log(`seed:   ${emails[k]} (${roles[k]})`);
  } finally {
    await db.$disconnect();
  }
}

main().catch((err) => {
  console.error("seed failed:", err);
  process.exit(1);
});
