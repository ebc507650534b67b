import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addLibraryFiles, deleteLibraryFile, type LibraryAuditEntry, libraryFilesDirFor, listLibrary } from "../tools/library";
import { type LibraryAuditLog, SEED_ACTOR, sampleFilesDir, seedDemoLibrary } from "./demo-library";

// The demo workspace's library (docs/library.md "The demo workspace's library").
let base: string;
/** The library's audit trail, in memory (the app's is the database's: lib/library/audit.ts). */
let recorded: LibraryAuditEntry[];
const log: LibraryAuditLog = {
  sink: async (e) => {
    recorded.push(e);
  },
  entries: async () => [...recorded],
};
const text = (s: string) => new TextEncoder().encode(s);

beforeEach(async () => {
  recorded = [];
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "phyl-demo-library-")));
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe("seedDemoLibrary", () => {
  it("puts the sample files into the library through the library's own write code (audit lines by the seed)", async () => {
    expect(await listLibrary(base, "ws_demo")).toEqual([]);
    expect(await seedDemoLibrary(base, "ws_demo", log)).toEqual(["README.md", "notes.md", "release-notes.md"]);
    const files = await listLibrary(base, "ws_demo");
    expect(files.map((f) => [f.name, f.kind])).toEqual([
      ["README.md", "text"],
      ["notes.md", "text"],
      ["release-notes.md", "text"],
    ]);
    for (const f of files) {
      expect(await fs.readFile(path.join(libraryFilesDirFor(base, "ws_demo"), f.name), "utf8")).toBe(await fs.readFile(path.join(sampleFilesDir(), f.name), "utf8"));
    }
    expect(recorded.map((e) => [e.action, e.name, e.actorId])).toEqual(files.map((f) => ["library_upload", f.name, SEED_ACTOR]));
    // Another workspace's library stays empty.
    expect(await listLibrary(base, "ws_other")).toEqual([]);
  });

  it("re-seeding adds nothing twice, keeps a file the owner replaced and does not bring back one the owner deleted", async () => {
    await seedDemoLibrary(base, "ws_demo", log);
    expect(await seedDemoLibrary(base, "ws_demo", log)).toEqual([]);
    await addLibraryFiles(base, "ws_demo", [{ name: "notes.md", data: text("the owner's notes") }], "owner", log.sink);
    await deleteLibraryFile(base, "ws_demo", "README.md", "owner", log.sink);
    expect(await seedDemoLibrary(base, "ws_demo", log)).toEqual([]);
    expect((await listLibrary(base, "ws_demo")).map((f) => f.name)).toEqual(["notes.md", "release-notes.md"]);
    expect(await fs.readFile(path.join(libraryFilesDirFor(base, "ws_demo"), "notes.md"), "utf8")).toBe("the owner's notes");
    expect(recorded.filter((e) => e.actorId === SEED_ACTOR)).toHaveLength(3);
  });

  it("adds a sample file the library has never had, next to the owner's files", async () => {
    await addLibraryFiles(base, "ws_demo", [{ name: "policy.md", data: text("# Policy") }], "owner", log.sink);
    const partial = path.join(base, "partial");
    await fs.mkdir(partial);
    await fs.copyFile(path.join(sampleFilesDir(), "notes.md"), path.join(partial, "notes.md"));
    expect(await seedDemoLibrary(base, "ws_demo", log, partial)).toEqual(["notes.md"]);
    expect(await seedDemoLibrary(base, "ws_demo", log)).toEqual(["README.md", "release-notes.md"]);
    expect((await listLibrary(base, "ws_demo")).map((f) => f.name)).toEqual(["README.md", "notes.md", "policy.md", "release-notes.md"]);
  });
});
