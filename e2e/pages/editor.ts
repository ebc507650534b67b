import { expect, type Locator, type Page } from "@playwright/test";

/** A node's box on screen, px. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Page object: the flow editor's canvas features: palette, problems, toolbar
 * commands, clipboard and dialogs. Nodes are found by React Flow's `data-id`, which is the
 * document's node id.
 */
export class EditorPage {
  constructor(readonly page: Page) {}

  canvas(): Locator {
    return this.page.getByTestId("flow-canvas");
  }
  /** The empty canvas background (clicking it clears the selection). */
  pane(): Locator {
    return this.page.locator(".react-flow__pane");
  }
  node(id: string): Locator {
    return this.page.locator(`.react-flow__node[data-id="${id}"]`);
  }
  selectedNodes(): Locator {
    return this.page.locator(".react-flow__node.selected");
  }
  edge(id: string): Locator {
    return this.page.getByTestId(`rf__edge-${id}`);
  }
  palette(key: string): Locator {
    return this.page.getByTestId(`palette-${key}`);
  }
  toolbarButton(testId: "undo" | "redo" | "auto-layout" | "fit-view" | "export-flow" | "import-flow" | "shortcuts-help" | "history-link"): Locator {
    return this.page.getByTestId(testId);
  }
  problemsPanel(): Locator {
    return this.page.getByTestId("problems-panel");
  }
  /** Problems in the panel, optionally of one code and on one node. */
  problems(code?: string, nodeId?: string): Locator {
    const byCode = code ? `[data-code="${code}"]` : "";
    const byNode = nodeId ? `[data-node="${nodeId}"]` : "";
    return this.problemsPanel().locator(`[data-testid^="problem-"]${byCode}${byNode}`);
  }
  problemsCount(): Locator {
    return this.page.getByTestId("problems-count");
  }
  runButton(): Locator {
    return this.page.getByTestId("run-start");
  }
  dirty(): Locator {
    return this.page.getByTestId("dirty-indicator");
  }

  /** Ids of every node on the canvas, in DOM order. */
  async nodeIds(): Promise<string[]> {
    return this.page.locator(".react-flow__node").evaluateAll((els) => els.map((el) => el.getAttribute("data-id") ?? ""));
  }

  async box(id: string): Promise<Box> {
    const box = await this.node(id).boundingBox();
    if (!box) throw new Error(`node ${id} is not on screen`);
    return box;
  }

  /** A node's position in flow coordinates (what the document stores), read from its transform. */
  async position(id: string): Promise<{ x: number; y: number }> {
    const transform = await this.node(id).evaluate((el) => (el as HTMLElement).style.transform);
    const match = /translate\((-?[\d.]+)px,\s*(-?[\d.]+)px\)/.exec(transform);
    if (!match) throw new Error(`node ${id} has no position (${transform})`);
    return { x: Number(match[1]), y: Number(match[2]) };
  }

  /** Waits until the viewport stops moving (zoom to fit and problem picks animate it). */
  async settle(): Promise<void> {
    const viewport = this.page.locator(".react-flow__viewport");
    let last = "";
    await expect
      .poll(
        async () => {
          const now = await viewport.evaluate((el) => (el as HTMLElement).style.transform);
          const still = now === last;
          last = now;
          return still;
        },
        { intervals: [150] },
      )
      .toBe(true);
  }

  /** Drags a palette item onto the canvas (HTML5 drag and drop), `at` relative to the canvas. */
  async dragFromPalette(key: string, at: { x: number; y: number }): Promise<void> {
    await this.palette(key).dragTo(this.canvas(), { targetPosition: at });
  }

  /** Connects two nodes by dragging from the source's right handle to the target's left handle. */
  async connect(sourceId: string, targetId: string): Promise<void> {
    const from = await this.node(sourceId).locator(".react-flow__handle.source").boundingBox();
    const to = await this.node(targetId).locator(".react-flow__handle.target").boundingBox();
    if (!from || !to) throw new Error(`no handles to connect ${sourceId} -> ${targetId}`);
    await this.page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
    await this.page.mouse.up();
  }

  /**
   * Starts dragging a connection from the source's right handle and holds it over `over`
   * (the target's left handle, or the middle of a node with no handle), mouse still down.
   * Finish with `page.mouse.up()`.
   */
  async holdConnection(sourceId: string, over: { handleOf: string } | { nodeMiddle: string }): Promise<void> {
    const from = await this.node(sourceId).locator(".react-flow__handle.source").boundingBox();
    const to = "handleOf" in over ? await this.node(over.handleOf).locator(".react-flow__handle.target").boundingBox() : await this.node(over.nodeMiddle).boundingBox();
    if (!from || !to) throw new Error(`nothing to drag from ${sourceId} to ${JSON.stringify(over)}`);
    await this.page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 12 });
  }

  /** The line over the canvas that says why a connection being dragged is refused. */
  connectionStatus(): Locator {
    return this.page.getByTestId("connection-status");
  }

  /** Drags a node by its middle, in several mouse moves (as a hand would). */
  async moveNode(id: string, by: { x: number; y: number }): Promise<void> {
    const box = await this.box(id);
    const x = box.x + box.width / 2;
    const y = box.y + Math.min(12, box.height / 2);
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    await this.page.mouse.move(x + by.x, y + by.y, { steps: 15 });
    await this.page.mouse.up();
  }

  /** Selects exactly these nodes: a click on the first, Shift+click on the others. */
  async select(...ids: string[]): Promise<void> {
    const [first, ...rest] = ids;
    if (!first) return;
    await this.clickNode(first);
    for (const id of rest) await this.clickNode(id, ["Shift"]);
    await expect(this.selectedNodes()).toHaveCount(ids.length);
  }

  /** Clicks a node near its top edge (its title, away from handles and badges). */
  async clickNode(id: string, modifiers: ("Shift" | "Control")[] = []): Promise<void> {
    const box = await this.box(id);
    await this.page.mouse.move(box.x + box.width / 2, box.y + Math.min(10, box.height / 2));
    for (const m of modifiers) await this.page.keyboard.down(m);
    await this.page.mouse.down();
    await this.page.mouse.up();
    for (const m of modifiers) await this.page.keyboard.up(m);
  }

  /** Clears the selection and takes focus out of any field (a click on the empty pane). */
  async clickEmptyPane(): Promise<void> {
    const box = await this.canvas().boundingBox();
    if (!box) throw new Error("no canvas");
    await this.page.mouse.click(box.x + 8, box.y + 8);
  }
}
