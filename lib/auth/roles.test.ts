import { describe, expect, it } from "vitest";
import { CAPABILITIES, type Capability, can, permissionOf, Role, requireCapability } from "./roles";

/** The whole role table, every role x capability (docs/security.md "Roles and powers"). */
const TABLE: Record<Role, Record<Capability, boolean>> = {
  owner: { see: true, decide: true, run: true, remember: true, edit: true, manage: true },
  approver: { see: true, decide: true, run: true, remember: true, edit: false, manage: false },
  viewer: { see: true, decide: false, run: false, remember: false, edit: false, manage: false },
};

describe("role table", () => {
  it("has exactly three roles and six capabilities", () => {
    expect(Role.options).toEqual(["owner", "approver", "viewer"]);
    expect([...CAPABILITIES]).toEqual(["see", "decide", "run", "remember", "edit", "manage"]);
  });

  for (const role of Role.options) {
    for (const what of CAPABILITIES) {
      const granted = TABLE[role][what];
      it(`${role} ${granted ? "may" : "may not"} ${what}`, () => {
        expect(can(role, what)).toBe(granted);
        if (granted) expect(() => requireCapability(role, what)).not.toThrow();
        else expect(() => requireCapability(role, what)).toThrow(expect.objectContaining({ status: 403, reason: "role_forbidden" }));
      });
    }
  }

  it("names the role and what it lacks, or the service's own refusal", () => {
    expect(() => requireCapability("viewer", "edit")).toThrow("Your role in this workspace is viewer; it cannot edit flows. Ask an owner for another role.");
    expect(() => requireCapability("approver", "manage", "only owners manage its webhooks.")).toThrow("Your role in this workspace is approver; only owners manage its webhooks.");
  });

  it("runs owners as admin and everyone else as user", () => {
    expect(Role.options.map(permissionOf)).toEqual(["admin", "user", "user"]);
  });
});
