import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { bindWorkspaceScope, runInWorkspaceScope, workspaceScope } from "./workspace-scope";

describe("workspace scope", () => {
  it("is null outside any scope, and the scope's workspace inside, across awaits", async () => {
    expect(workspaceScope()).toBeNull();
    const seen = await runInWorkspaceScope("ws_a", async () => {
      await new Promise((r) => setTimeout(r, 1));
      return workspaceScope();
    });
    expect(seen).toBe("ws_a");
    expect(workspaceScope()).toBeNull();
  });

  it("keeps concurrent requests apart", async () => {
    const one = runInWorkspaceScope("ws_a", async () => {
      await new Promise((r) => setTimeout(r, 5));
      return workspaceScope();
    });
    const two = runInWorkspaceScope(null, async () => {
      await new Promise((r) => setTimeout(r, 1));
      return workspaceScope();
    });
    expect(await Promise.all([one, two])).toEqual(["ws_a", null]);
  });

  it("a bound callback keeps its scope when another context calls it (a bus subscriber)", () => {
    const bus = new EventEmitter();
    const seen: (string | null)[] = [];
    runInWorkspaceScope("ws_a", () => {
      bus.on(
        "e",
        bindWorkspaceScope(() => seen.push(workspaceScope())),
      );
      bus.on("e", () => seen.push(workspaceScope()));
    });
    runInWorkspaceScope("ws_b", () => bus.emit("e"));
    bus.emit("e");
    // The bound one always sees ws_a; the unbound one sees whoever emitted.
    expect(seen).toEqual(["ws_a", "ws_b", "ws_a", null]);
  });
});
