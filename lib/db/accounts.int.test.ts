import bcrypt from "bcryptjs";
import { afterEach, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { createAccount, instanceOverview } from "./accounts";
import { listFlows } from "./flows";
import { isInstanceAdmin } from "./instance-admin";
import { myInvitations } from "./invitation-answers";
import { inviteMember } from "./invitations";
import { listMembers } from "./members";
import { createTestDb, type TestDb } from "./test-db";
import { personalWorkspace } from "./workspaces";

/**
 * The instance-admin role on a real SQLite file (docs/security.md "Roles and powers"): the
 * first account, or exactly the accounts named in ADMIN_EMAILS, create accounts and list
 * accounts and workspaces; nobody else can, and being admin reads no workspace's contents.
 */
describe("instance admin and accounts", () => {
  let t: TestDb;
  afterEach(async () => t?.cleanup());

  /** Three accounts created one after another: first, second, third. */
  async function setup() {
    t = await createTestDb();
    const ids: string[] = [];
    for (const [i, n] of ["first", "second", "third"].entries()) {
      ids.push((await t.db.user.create({ data: { email: `${n}@test.dev`, createdAt: new Date(Date.UTC(2026, 0, 1 + i)) } })).id);
    }
    const [first = "", second = "", third = ""] = ids;
    return { first, second, third };
  }

  const FIRST = undefined;
  const good = { email: "New.Person@Test.dev", name: "New Person", password: "correct horse battery" };

  it("without ADMIN_EMAILS, the first account created is the only admin", async () => {
    const { first, second, third } = await setup();
    expect(await isInstanceAdmin(t.db, first, FIRST)).toBe(true);
    expect(await isInstanceAdmin(t.db, second, FIRST)).toBe(false);
    expect(await isInstanceAdmin(t.db, third, FIRST)).toBe(false);
    expect(await isInstanceAdmin(t.db, "no-such-user", FIRST)).toBe(false);
  });

  it("with ADMIN_EMAILS, exactly the accounts it names are admins, and the first account is not", async () => {
    const { first, second, third } = await setup();
    const list = ["second@test.dev", "nobody@test.dev"];
    expect(await isInstanceAdmin(t.db, first, list)).toBe(false);
    expect(await isInstanceAdmin(t.db, second, list)).toBe(true);
    expect(await isInstanceAdmin(t.db, third, list)).toBe(false);
    await expect(createAccount(t.db, first, good, list)).rejects.toMatchObject({ code: "forbidden", reason: "admin_only" });
    await expect(createAccount(t.db, second, good, list)).resolves.toMatchObject({ email: "new.person@test.dev", admin: false });
  });

  it("a non-admin cannot create accounts or list them (403), and no account appears", async () => {
    const { second, third } = await setup();
    for (const actor of [second, third]) {
      await expect(createAccount(t.db, actor, good, FIRST)).rejects.toMatchObject({ code: "forbidden", reason: "admin_only" });
      await expect(instanceOverview(t.db, actor, FIRST)).rejects.toMatchObject({ code: "forbidden", reason: "admin_only" });
    }
    expect(await t.db.user.count()).toBe(3);
  });

  it("an admin creates an account that signs in with its password and sees the invitations sent to it before", async () => {
    const { first, second } = await setup();
    const ws = await personalWorkspace(t.db, second);
    const inv = await inviteMember(t.db, second, ws, { email: "new.person@test.dev", role: "viewer" });
    const account = await createAccount(t.db, first, good, FIRST);
    expect(account).toMatchObject({ email: "new.person@test.dev", name: "New Person", admin: false, workspaces: 0 });
    const stored = await t.db.user.findUniqueOrThrow({ where: { id: account.id } });
    expect(await bcrypt.compare(good.password, stored.passwordHash ?? "")).toBe(true);
    expect((await myInvitations(t.db, account.id)).map((i) => i.id)).toEqual([inv.id]);
    await expect(createAccount(t.db, first, { ...good, email: "NEW.person@test.dev" }, FIRST)).rejects.toMatchObject({ code: "conflict", reason: "account_exists" });
  });

  it("passwords under 12 characters or over 72 bytes are refused, naming the rule", async () => {
    const { first } = await setup();
    for (const password of ["short-pass1", "é".repeat(37), ""]) {
      const err = await createAccount(t.db, first, { ...good, password }, FIRST).catch((e) => e);
      expect(err).toBeInstanceOf(ZodError);
      expect((err as ZodError).issues[0]?.path).toEqual(["password"]);
    }
    await expect(createAccount(t.db, first, { ...good, password: "a".repeat(72) }, FIRST)).resolves.toMatchObject({ email: "new.person@test.dev" });
    expect(await t.db.user.count()).toBe(4);
  });

  it("the admin lists accounts and workspaces by name, but reads nothing inside a workspace it is not a member of", async () => {
    const { first, second } = await setup();
    const ws = await personalWorkspace(t.db, second);
    const overview = await instanceOverview(t.db, first, FIRST);
    expect(overview.accounts.map((a) => [a.email, a.admin, a.workspaces])).toEqual([
      ["first@test.dev", true, 0],
      ["second@test.dev", false, 1],
      ["third@test.dev", false, 0],
    ]);
    expect(overview.workspaces).toEqual([expect.objectContaining({ id: ws, name: "second@test.dev's workspace", members: 1, owners: ["second@test.dev"] })]);
    await expect(listMembers(t.db, first, ws)).rejects.toMatchObject({ code: "not_found" });
    expect(await listFlows(t.db, first)).toEqual([]);
  });
});
