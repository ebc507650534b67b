import { readFile, writeFile } from "node:fs/promises";
import { expect, test } from "./fixtures";
import { FlowsPage, SignInPage } from "./pages/app";
import { type Box, EditorPage } from "./pages/editor";

/**
 * The editor's canvas features: palette drag and drop, connecting, live
 * validation in the problems panel and on the Run button, undo/redo, copy/paste,
 * multi-select, auto-layout, zoom to fit, import/export, the shortcuts help and the
 * unsaved-changes warning. Every test edits its own copy of the workspace assistant.
 */

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await new SignInPage(page).signInAndWait();
  await new FlowsPage(page).newFromTemplate();
});

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

test("drag from the palette, see the validation error, connect to fix it, save to run", async ({ page }) => {
  const editor = new EditorPage(page);
  await expect(editor.problemsCount()).toHaveAttribute("data-errors", "0");
  await expect(editor.runButton()).toBeEnabled();

  // Drop an Agent near the canvas's top-left corner: it lands where it was dropped.
  await editor.dragFromPalette("agent", { x: 140, y: 60 });
  await expect(editor.node("agent-1")).toBeVisible();
  const canvas = await editor.canvas().boundingBox();
  const dropped = await editor.box("agent-1");
  if (!canvas) throw new Error("no canvas");
  expect(Math.abs(dropped.x + dropped.width / 2 - (canvas.x + 140))).toBeLessThan(dropped.width);
  expect(Math.abs(dropped.y + dropped.height / 2 - (canvas.y + 60))).toBeLessThan(40);
  await expect(editor.dirty()).toBeVisible();

  // Live validation: nothing reaches the new agent. The panel, the count and the Run button say so.
  const unreachable = editor.problems("unreachable", "agent-1");
  await expect(unreachable).toHaveCount(1);
  await expect(unreachable).toContainText('Agent "Agent" cannot be reached from Start');
  await expect(editor.problemsCount()).toHaveAttribute("data-errors", "1");
  await expect(editor.runButton()).toBeDisabled();
  await expect(editor.runButton()).toHaveAttribute("title", /cannot be reached from Start/);
  await expect(page.getByTestId("run-blocked-reason")).toContainText("cannot be reached from Start");

  // A Tool dropped from the palette binds the tool picked there; an unused tool is only a
  // warning, listed after the errors.
  await page.getByTestId("palette-tool-select").selectOption("list_files");
  await editor.dragFromPalette("tool", { x: 150, y: 330 });
  await expect(editor.node("tool-1")).toContainText("list_files");
  const unbound = editor.problems("unbound_tool", "tool-1");
  await expect(unbound).toHaveAttribute("data-severity", "warning");
  const severities = await editor.problems().evaluateAll((els) => els.map((el) => el.getAttribute("data-severity")));
  expect(severities).toEqual(["error", "warning"]);

  // Picking the problem selects its node (the inspector shows it).
  await editor.clickEmptyPane();
  await expect(editor.selectedNodes()).toHaveCount(0);
  await unreachable.click();
  await expect(editor.node("agent-1")).toHaveClass(/selected/);
  await expect(editor.selectedNodes()).toHaveCount(1);
  // ...and centres it in the view.
  await editor.settle();
  const picked = await editor.box("agent-1");
  expect(Math.abs(picked.x + picked.width / 2 - (canvas.x + canvas.width / 2))).toBeLessThan(canvas.width / 8);

  // Zoom to fit (F) shows the whole flow again.
  await page.keyboard.press("f");
  await editor.settle();

  // Connect Supervisor -> Agent -> Tool: both problems are gone.
  await editor.connect("supervisor", "agent-1");
  await expect(editor.edge("e-supervisor-agent-1-1")).toBeVisible();
  await expect(unreachable).toHaveCount(0);
  await editor.connect("agent-1", "tool-1");
  await expect(editor.edge("e-agent-1-tool-1-1")).toBeVisible();
  await expect(unbound).toHaveCount(0);
  await expect(editor.problemsCount()).toHaveAttribute("data-errors", "0");
  await expect(editor.problemsCount()).toHaveAttribute("data-warnings", "0");

  // Valid but unsaved: the run would not see the edits.
  await expect(editor.runButton()).toBeDisabled();
  await expect(editor.runButton()).toHaveAttribute("title", /Save first/);
  await page.getByTestId("save-flow").click();
  await expect(page.getByTestId("save-status")).toBeVisible();
  await expect(editor.runButton()).toBeEnabled();
  await expect(page.getByTestId("run-blocked-reason")).toHaveCount(0);

  // A side-effect tool with no policy: delete the policy node, see the errors, undo.
  await editor.clickNode("policy");
  await page.keyboard.press("Delete");
  await expect(editor.node("policy")).toHaveCount(0);
  await expect(editor.problems("side_effect_uncovered", "t-write")).toHaveCount(1);
  await expect(editor.problems("side_effect_uncovered", "t-delete")).toHaveCount(1);
  await expect(editor.runButton()).toBeDisabled();
  await page.keyboard.press("Control+z");
  await expect(editor.node("policy")).toBeVisible();
  await expect(editor.problems("side_effect_uncovered")).toHaveCount(0);
  // Back to the saved state: clean again, and runnable.
  await expect(editor.dirty()).toHaveCount(0);
  await expect(editor.runButton()).toBeEnabled();
});

test("undo and redo: a drag and a burst of typing are one step each; fields keep their own keys", async ({ page }) => {
  const editor = new EditorPage(page);
  // Selecting is not an edit: nothing to undo, nothing unsaved.
  await editor.clickNode("assistant");
  await expect(page.getByTestId("inspector-agent-name")).toHaveValue("Assistant");
  await expect(editor.toolbarButton("undo")).toBeDisabled();
  await expect(editor.dirty()).toHaveCount(0);
  await editor.clickEmptyPane();
  const before = await editor.position("end");

  await editor.moveNode("end", { x: 160, y: 90 });
  const moved = await editor.position("end");
  expect(moved.x - before.x).toBeGreaterThan(100);
  await expect(editor.dirty()).toBeVisible();

  // Type a name one key at a time into the inspector.
  await editor.clickNode("assistant");
  const name = page.getByTestId("inspector-agent-name");
  await name.click();
  await name.press("End");
  await name.pressSequentially(" two", { delay: 30 });
  await expect(page.getByTestId("flow-node-assistant")).toContainText("Assistant two");

  // Inside a field, canvas shortcuts stay out of the way: Mod+A selects the text, not every node.
  await name.press("Control+a");
  await expect(editor.selectedNodes()).toHaveCount(1);

  // Out of the field, one undo takes back the whole burst of typing, the next the whole drag.
  await editor.clickEmptyPane();
  await page.keyboard.press("Control+z");
  await expect(page.getByTestId("flow-node-assistant")).toContainText("Assistant");
  await expect(page.getByTestId("flow-node-assistant")).not.toContainText("two");
  expect(await editor.position("end")).toEqual(moved);
  await page.keyboard.press("Control+z");
  await expect.poll(() => editor.position("end")).toEqual(before);
  // Everything undone: the editor is back at the saved version.
  await expect(editor.dirty()).toHaveCount(0);
  await expect(editor.toolbarButton("undo")).toBeDisabled();

  // Redo with the keyboard (both chords) and the toolbar.
  await page.keyboard.press("Control+Shift+z");
  await expect.poll(() => editor.position("end")).toEqual(moved);
  await expect(editor.dirty()).toBeVisible();
  await page.keyboard.press("Control+y");
  await expect(page.getByTestId("flow-node-assistant")).toContainText("Assistant two");
  await expect(editor.toolbarButton("redo")).toBeDisabled();
  await editor.toolbarButton("undo").click();
  await expect(page.getByTestId("flow-node-assistant")).not.toContainText("two");
  await editor.toolbarButton("redo").click();
  await expect(page.getByTestId("flow-node-assistant")).toContainText("Assistant two");

  // A new edit after an undo clears the redo stack.
  await editor.toolbarButton("undo").click();
  await editor.clickNode("end");
  await page.keyboard.press("Delete");
  await expect(editor.node("end")).toHaveCount(0);
  await expect(editor.problems("missing_end")).toHaveCount(1);
  await expect(editor.toolbarButton("redo")).toBeDisabled();
  await page.keyboard.press("Control+z");
  await expect(editor.node("end")).toBeVisible();
  await expect(editor.problems("missing_end")).toHaveCount(0);

  // Keyboard users add from the palette with Enter: the node lands in view, selected; undo removes it.
  await editor.palette("reviewer").focus();
  await page.keyboard.press("Enter");
  await expect(editor.node("reviewer-1")).toHaveClass(/selected/);
  await expect(page.getByTestId("inspector-agent-name")).toHaveValue("Reviewer");
  const canvas = await editor.canvas().boundingBox();
  const added = await editor.box("reviewer-1");
  if (!canvas) throw new Error("no canvas");
  expect(added.x).toBeGreaterThan(canvas.x);
  expect(added.x + added.width).toBeLessThan(canvas.x + canvas.width);
  await page.keyboard.press("Control+z");
  await expect(editor.node("reviewer-1")).toHaveCount(0);
});

test("copy/paste and duplicate: fresh ids, the edges between copies, offset, selected; multi-select", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const editor = new EditorPage(page);

  // Shift+click builds a selection; copy it with the edge between the two nodes.
  await editor.select("assistant", "t-read");
  await page.keyboard.press("Control+c");
  // The copy is also on the system clipboard, as JSON text.
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('"phylactery/flow-nodes"');

  await page.keyboard.press("Control+v");
  await expect(editor.node("assistant-1")).toBeVisible();
  await expect(editor.node("t-read-1")).toBeVisible();
  await expect(editor.edge("e-assistant-1-t-read-1-1")).toHaveCount(1);
  // The copies are the selection, a little below and to the right of the originals.
  await expect(editor.selectedNodes()).toHaveCount(2);
  await expect(editor.node("assistant-1")).toHaveClass(/selected/);
  await expect(editor.node("assistant")).not.toHaveClass(/selected/);
  const original = await editor.box("assistant");
  const copy = await editor.box("assistant-1");
  expect(copy.x).toBeGreaterThan(original.x);
  expect(copy.y).toBeGreaterThan(original.y);
  // The copied agent is not connected to anything yet: validation says so.
  await expect(editor.problems("unreachable", "assistant-1")).toHaveCount(1);

  // Pasting again lands one step further; Mod+D duplicates the selection.
  await page.keyboard.press("Control+v");
  await expect(editor.node("assistant-2")).toBeVisible();
  expect((await editor.box("assistant-2")).x).toBeGreaterThan(copy.x);
  await page.keyboard.press("Control+d");
  await expect(editor.node("assistant-3")).toBeVisible();
  await expect(editor.edge("e-assistant-3-t-read-3-1")).toHaveCount(1);

  // One undo takes back one paste.
  await page.keyboard.press("Control+z");
  await expect(editor.node("assistant-3")).toHaveCount(0);
  await expect(editor.node("t-read-3")).toHaveCount(0);
  await expect(editor.node("assistant-2")).toBeVisible();

  // Mod+A selects everything; Delete removes the selection; undo brings it all back.
  const count = (await editor.nodeIds()).length;
  await editor.clickEmptyPane();
  await page.keyboard.press("Control+a");
  await expect(editor.selectedNodes()).toHaveCount(count);
  await editor.clickEmptyPane();

  // Shift+drag draws a selection box: it selects the nodes inside it.
  const a = await editor.box("t-list");
  const b = await editor.box("t-read");
  await page.keyboard.down("Shift");
  await page.mouse.move(b.x + b.width + 14, b.y + b.height + 10);
  await page.mouse.down();
  await page.mouse.move(a.x - 14, a.y - 10, { steps: 10 });
  await page.mouse.up();
  await page.keyboard.up("Shift");
  await expect(editor.selectedNodes()).toHaveCount(2);
  await expect(editor.node("t-list")).toHaveClass(/selected/);
  await expect(editor.node("t-read")).toHaveClass(/selected/);
  await page.keyboard.press("Backspace");
  await expect(editor.node("t-list")).toHaveCount(0);
  await expect(editor.node("t-read")).toHaveCount(0);
  await page.keyboard.press("Control+z");
  await expect(editor.node("t-list")).toBeVisible();
  await expect(editor.edge("e-list")).toHaveCount(1);

  // Nodes copied elsewhere (another tab, an exported file) paste from the system clipboard.
  const ask = { id: "ask", type: "human_input", position: { x: 0, y: 0 }, data: { name: "Ask the user", prompt: "Which file?" } };
  await page.evaluate((text) => navigator.clipboard.writeText(text), JSON.stringify({ nodes: [ask], edges: [] }));
  await editor.clickEmptyPane();
  await page.keyboard.press("Control+v");
  await expect(editor.node("ask-1")).toBeVisible();
  await expect(editor.node("ask-1")).toHaveClass(/selected/);
  await expect(editor.selectedNodes()).toHaveCount(1);
});

test("auto-layout arranges the flow left to right without overlaps; zoom to fit shows it all", async ({ page }) => {
  const editor = new EditorPage(page);
  // Mess it up: End on top of Start, a tool far to the left.
  const start = await editor.box("start");
  const end = await editor.box("end");
  await editor.moveNode("end", { x: start.x - end.x, y: start.y - end.y });
  await editor.moveNode("t-rehydrate", { x: -500, y: 0 });
  expect(overlaps(await editor.box("start"), await editor.box("end"))).toBe(true);

  await editor.toolbarButton("auto-layout").click();
  const ids = await editor.nodeIds();
  await expect
    .poll(async () => {
      const boxes = await Promise.all(ids.map((id) => editor.box(id)));
      return boxes.some((p, i) => boxes.slice(i + 1).some((q) => overlaps(p, q)));
    })
    .toBe(false);
  const edges: [string, string][] = [
    ["start", "supervisor"],
    ["supervisor", "assistant"],
    ["supervisor", "end"],
    ["assistant", "t-rehydrate"],
    ["assistant", "t-write"],
  ];
  for (const [s, t] of edges) expect((await editor.box(s)).x, `${s} left of ${t}`).toBeLessThan((await editor.box(t)).x);
  await expect(editor.dirty()).toBeVisible();

  // Zoom in until nodes leave the view, then zoom to fit brings every node back into it.
  await editor.clickEmptyPane();
  for (let i = 0; i < 6; i++) await page.locator(".react-flow__controls-zoomin").click();
  const canvas = await editor.canvas().boundingBox();
  if (!canvas) throw new Error("no canvas");
  // The canvas mounts only the nodes in view (onlyRenderVisibleElements): a node that is
  // not mounted is out of view, and every mounted one must lie inside the canvas.
  const inView = async () => {
    const rects = await page.locator(".react-flow__node").evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return { id: el.getAttribute("data-id") ?? "", x: r.x, y: r.y, width: r.width, height: r.height };
      }),
    );
    if (ids.some((id) => !rects.some((r) => r.id === id))) return false;
    return rects.every((b) => b.x >= canvas.x - 1 && b.y >= canvas.y - 1 && b.x + b.width <= canvas.x + canvas.width + 1 && b.y + b.height <= canvas.y + canvas.height + 1);
  };
  expect(await inView()).toBe(false);
  await editor.toolbarButton("fit-view").click();
  await expect.poll(inView).toBe(true);

  // Undo puts the nodes back where they were; Shift+L lays them out again.
  await page.keyboard.press("Control+z");
  await expect.poll(async () => overlaps(await editor.box("start"), await editor.box("end"))).toBe(true);
  await page.keyboard.press("Shift+L");
  await expect.poll(async () => overlaps(await editor.box("start"), await editor.box("end"))).toBe(false);
});

test("export and import round trip; invalid imports name the node and field and change nothing", async ({ page }, testInfo) => {
  const editor = new EditorPage(page);

  const download = page.waitForEvent("download");
  await editor.toolbarButton("export-flow").click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("Workspace assistant.json");
  const exportedPath = testInfo.outputPath("exported.json");
  await file.saveAs(exportedPath);
  const exported = JSON.parse(await readFile(exportedPath, "utf8"));
  expect(exported.settings.name).toBe("Workspace assistant");
  expect(exported.nodes.map((n: { id: string }) => n.id).sort()).toEqual((await editor.nodeIds()).sort());
  expect(exported.edges).toContainEqual({ id: "e-delete", source: "assistant", target: "t-delete" });

  // Change the canvas: delete a tool and move End.
  await editor.clickNode("t-delete");
  await page.keyboard.press("Delete");
  await expect(editor.node("t-delete")).toHaveCount(0);
  const endBefore = await editor.position("end");
  await editor.moveNode("end", { x: 120, y: 60 });
  expect((await editor.position("end")).x).toBeGreaterThan(endBefore.x);

  // Invalid JSON text: the dialog lists the issues naming node and field; the canvas is unchanged.
  await editor.toolbarButton("import-flow").click();
  const broken = structuredClone(exported);
  broken.nodes.find((n: { id: string }) => n.id === "assistant").data.name = "";
  broken.nodes.find((n: { id: string }) => n.id === "t-read").data.tool = "Read File";
  await page.getByTestId("import-text").fill(JSON.stringify(broken));
  await page.getByTestId("import-submit").click();
  const errors = page.getByTestId("import-errors");
  await expect(errors).toContainText('node "assistant" (agent), field data.name');
  await expect(errors).toContainText('node "t-read" (tool), field data.tool');
  await page.getByTestId("import-text").fill("{ not json");
  await page.getByTestId("import-submit").click();
  await expect(errors).toContainText("not JSON");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("import-dialog")).not.toBeVisible();
  await expect(editor.node("t-delete")).toHaveCount(0);

  // The exported file, picked as a file: the canvas is the exported flow again, as an unsaved change.
  await editor.toolbarButton("import-flow").click();
  await page.getByTestId("import-file").setInputFiles(exportedPath);
  await expect(page.getByTestId("import-dialog")).not.toBeVisible();
  await expect(editor.node("t-delete")).toBeVisible();
  await expect(editor.edge("e-delete")).toHaveCount(1);
  await expect(editor.dirty()).toBeVisible();

  // Exporting again gives the same document: the round trip loses nothing.
  const again = page.waitForEvent("download");
  await editor.toolbarButton("export-flow").click();
  const againPath = testInfo.outputPath("again.json");
  await (await again).saveAs(againPath);
  expect(JSON.parse(await readFile(againPath, "utf8"))).toEqual(exported);

  // The import is one undo step.
  await page.keyboard.press("Control+z");
  await expect(editor.node("t-delete")).toHaveCount(0);
  await page.keyboard.press("Control+z");
  await expect.poll(() => editor.position("end")).toEqual(endBefore);

  // A file that is not a flow: the errors name the file.
  const badPath = testInfo.outputPath("not-a-flow.json");
  await writeFile(badPath, JSON.stringify({ version: 1, settings: { name: "x" }, nodes: [], edges: [] }));
  await editor.toolbarButton("import-flow").click();
  await page.getByTestId("import-file").setInputFiles(badPath);
  await expect(errors).toContainText("not-a-flow.json");
  await expect(errors).toContainText("nodes");
});

test("shortcuts help, the history link and the unsaved-changes warning", async ({ page }) => {
  const editor = new EditorPage(page);

  // ? opens the help; it lists the shortcuts; Escape closes it. The toolbar button opens it too.
  await editor.clickEmptyPane();
  await page.keyboard.press("?");
  const help = page.getByTestId("shortcuts-dialog");
  await expect(help).toBeVisible();
  for (const keys of ["Ctrl+Z", "Ctrl+Shift+Z", "Ctrl+C", "Ctrl+V", "Ctrl+D", "Delete", "Ctrl+A", "Shift+L", "Ctrl+S"]) {
    await expect(help.locator("kbd", { hasText: new RegExp(`^${keys.replace(/\+/g, "\\+")}$`) })).toHaveCount(1);
  }
  await page.keyboard.press("Escape");
  await expect(help).not.toBeVisible();
  await editor.toolbarButton("shortcuts-help").click();
  await expect(help).toBeVisible();
  await page.getByTestId("shortcuts-close").click();
  await expect(help).not.toBeVisible();

  const flowUrl = page.url();
  await expect(editor.toolbarButton("history-link")).toHaveAttribute("href", `${new URL(flowUrl).pathname}/versions`);

  // Dirty: leaving through an in-app link asks first; refusing stays, with the edits.
  await editor.moveNode("end", { x: 80, y: 40 });
  await expect(editor.dirty()).toBeVisible();
  let asked = "";
  page.once("dialog", (dialog) => {
    asked = dialog.message();
    void dialog.dismiss();
  });
  await editor.toolbarButton("history-link").click();
  await expect.poll(() => asked).toContain("unsaved changes");
  expect(page.url()).toBe(flowUrl);
  await expect(editor.dirty()).toBeVisible();

  // Saved: the link just goes.
  await page.keyboard.press("Control+s");
  await expect(page.getByTestId("save-status")).toBeVisible();
  let askedAgain = false;
  page.on("dialog", (dialog) => {
    askedAgain = true;
    void dialog.accept();
  });
  await editor.toolbarButton("history-link").click();
  await page.waitForURL(/\/versions$/);
  expect(askedAgain).toBe(false);
});
