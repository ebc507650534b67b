import type { Page } from "@playwright/test";
import { generateFlow } from "../bench/canvas/generate";
import { expect, test } from "./fixtures";
import { FlowsPage, SignInPage } from "./pages/app";
import { EditorPage } from "./pages/editor";

/**
 * A large flow in the editor (docs/benchmarks.md, bench:canvas): React Flow draws only the
 * nodes in view, from the first render on (the nodes start with estimated sizes, so none is
 * drawn off screen only to be measured), each drawn node's measured size replaces its
 * estimate (its edges end on its handles), and dragging a node re-renders the canvas, not the
 * panels around it. The flow is the benchmark's generator at 400 nodes, imported, then saved.
 */

const NODES = 400;
/**
 * Nodes mounted at most at any moment: the 1440x900 view shows about 100 at React Flow's
 * smallest zoom (0.5), and while the viewport settles after an import or a load the count
 * peaked at 138 once in three runs. Half of NODES still tells a virtualized canvas from one
 * that mounts every node.
 */
const IN_VIEW_AT_MOST = NODES / 2;

/**
 * Records, for every later navigation too, the most `.react-flow__node` elements the page
 * ever held at once (read after each DOM change, so a node mounted and unmounted in between
 * two frames counts).
 */
async function recordMostNodes(page: Page): Promise<void> {
  const install = () => {
    const w = window as unknown as { __mostNodes: number };
    w.__mostNodes = 0;
    new MutationObserver(() => {
      w.__mostNodes = Math.max(w.__mostNodes, document.querySelectorAll(".react-flow__node").length);
    }).observe(document, { childList: true, subtree: true });
  };
  await page.addInitScript(install);
  await page.evaluate(install);
}

const mostNodes = (page: Page) => page.evaluate(() => (window as unknown as { __mostNodes: number }).__mostNodes);

/** Waits until the generated flow's agents (ids `agent-N`) are drawn and the view stopped moving. */
async function generatedInView(editor: EditorPage): Promise<string[]> {
  await expect.poll(async () => (await editor.nodeIds()).filter((id) => /^agent-\d+$/.test(id)).length).toBeGreaterThan(0);
  await editor.settle();
  return editor.nodeIds();
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await new SignInPage(page).signInAndWait();
  await new FlowsPage(page).newFromTemplate();
});

test("a 400-node flow: only the nodes in view are drawn, edges end on measured handles, a drag leaves the panels alone", async ({ page }) => {
  const editor = new EditorPage(page);
  const doc = generateFlow({ nodes: NODES });

  // Imported: the canvas shows the new flow, drawing only what is in view.
  await recordMostNodes(page);
  await editor.toolbarButton("import-flow").click();
  await page.getByTestId("import-text").fill(JSON.stringify(doc));
  await page.getByTestId("import-submit").click();
  await expect(page.getByTestId("import-dialog")).not.toBeVisible();
  await generatedInView(editor);
  expect(await mostNodes(page)).toBeLessThanOrEqual(IN_VIEW_AT_MOST);

  // Saved and opened again: the first render draws only what is in view too.
  await page.getByTestId("save-message").fill("400 nodes");
  await page.getByTestId("save-flow").click();
  await expect(page.getByTestId("save-status")).toContainText("Saved");
  await page.reload();
  const drawn = await generatedInView(editor);
  expect(drawn.length).toBeGreaterThan(5);
  expect(await mostNodes(page)).toBeLessThanOrEqual(IN_VIEW_AT_MOST);

  // A drawn tool node taller than the estimate (a write_file tool shows a coverage line): its
  // edge ends level with its target handle as measured, not where the estimate put it
  // (half the height difference lower: 7 px on screen at this zoom).
  const tool = drawn.find((id) => /^agent-\d+-t\d+$/.test(id) && doc.nodes.some((n) => n.id === id && n.type === "tool" && n.data.tool === "write_file"));
  if (!tool) throw new Error(`no write_file tool in view among ${drawn.join(", ")}`);
  await expect(editor.node(tool).getByTestId(`flow-node-${tool}-coverage`)).toBeVisible();
  const gap = await page.evaluate((id) => {
    const path = document.querySelector<SVGPathElement>(`[data-testid="rf__edge-e-${id}"] path.react-flow__edge-path`);
    const handle = document.querySelector(`.react-flow__node[data-id="${id}"] .react-flow__handle.target`);
    const ctm = path?.getScreenCTM();
    if (!path || !handle || !ctm) return null;
    const end = path.getPointAtLength(path.getTotalLength()).matrixTransform(ctm);
    const box = handle.getBoundingClientRect();
    return Math.abs(end.y - (box.top + box.height / 2));
  }, tool);
  expect(gap).not.toBeNull();
  expect(gap).toBeLessThan(1);

  // Drag an agent twice (the first drag selects it and makes the flow unsaved): during the
  // second, nothing outside the canvas changes in the DOM. React re-applies some attributes
  // of every input it renders again, so a panel rendered on each frame would show here.
  const agent = drawn.find((id) => /^agent-\d+$/.test(id));
  if (!agent) throw new Error(`no agent in view among ${drawn.join(", ")}`);
  await editor.moveNode(agent, { x: 40, y: 20 });
  await expect(editor.dirty()).toBeVisible();
  await page.evaluate(() => {
    const w = window as unknown as { __outside: string[]; __outsideObserver: MutationObserver };
    w.__outside = [];
    w.__outsideObserver = new MutationObserver((records) => {
      for (const r of records) {
        const el = r.target instanceof Element ? r.target : r.target.parentElement;
        if (el?.closest(".react-flow")) continue;
        w.__outside.push(`${r.type} ${r.attributeName ?? ""} ${el?.closest("[data-testid]")?.getAttribute("data-testid") ?? el?.tagName ?? "?"}`);
      }
    });
    w.__outsideObserver.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  const before = await editor.position(agent);
  await editor.moveNode(agent, { x: 60, y: 30 });
  expect((await editor.position(agent)).x).toBeGreaterThan(before.x);
  const outside = await page.evaluate(() => {
    const w = window as unknown as { __outside: string[]; __outsideObserver: MutationObserver };
    w.__outsideObserver.disconnect();
    return w.__outside;
  });
  expect(outside).toEqual([]);
});
