import { expect, type Locator, type Page } from "@playwright/test";

/**
 * Page object: the editor's canvas nodes and the inspector beside them. Field test ids are
 * `inspector-{kind}-{field}`; inline errors `inspector-error-{path}` with the form's path
 * (`name`, `maxTries`, `rules.0.tool`); rule and route rows are 0-based like those paths.
 */
export class InspectorPanel {
  constructor(readonly page: Page) {}

  root(): Locator {
    return this.page.getByTestId("inspector");
  }

  /** A node on the canvas. */
  node(id: string): Locator {
    return this.page.getByTestId(`flow-node-${id}`);
  }

  /** The policy decision badge of a tool node. */
  decision(toolNodeId: string): Locator {
    return this.page.getByTestId(`flow-node-${toolNodeId}-decision`);
  }

  /** The problem badge of a node (`data-severity` error or warning). */
  nodeProblems(id: string): Locator {
    return this.page.getByTestId(`node-problems-${id}`);
  }

  /** Selects a node on the canvas and waits for its form. */
  async select(id: string): Promise<void> {
    await this.node(id).click();
    await expect(this.root().getByRole("form", { name: `Edit ${id}` })).toBeVisible();
  }

  /** A field of the selected node's form, e.g. `field("agent", "name")`. */
  field(kind: string, name: string): Locator {
    return this.page.getByTestId(`inspector-${kind}-${name}`);
  }

  /** The inline error of a form path, e.g. `error("maxTries")`, `error("rules.0.tool")`. */
  error(path: string): Locator {
    return this.page.getByTestId(`inspector-error-${path}`);
  }

  /** The note shown while the form holds values that are not applied (they fail the schema). */
  pending(): Locator {
    return this.page.getByTestId("inspector-pending");
  }

  /** The selected node's live problems. */
  problems(): Locator {
    return this.page.getByTestId("inspector-problems");
  }

  // Policy rules (0-based).

  ruleTool(index: number): Locator {
    return this.page.getByTestId(`inspector-rule-tool-${index}`);
  }

  ruleDecision(index: number): Locator {
    return this.page.getByTestId(`inspector-rule-decision-${index}`);
  }

  /** Adds a rule for a catalog tool (or "*") at the end of the selected policy; resolves to its index. */
  async addRule(tool: string): Promise<number> {
    const before = await this.ruleCount();
    await this.page.getByTestId("inspector-rule-add-tool").selectOption(tool);
    await this.page.getByTestId("inspector-rule-add").click();
    await expect(this.ruleTool(before)).toBeVisible();
    return before;
  }

  async ruleCount(): Promise<number> {
    return this.root().locator('[data-testid^="inspector-rule-tool-"]').count();
  }

  /** Moves rule `index` to the top with its ↑ button, one step at a time. */
  async moveRuleToTop(index: number): Promise<void> {
    for (let i = index; i > 0; i--) await this.page.getByTestId(`inspector-rule-up-${i}`).click();
  }

  async removeRule(index: number): Promise<void> {
    await this.page.getByTestId(`inspector-rule-remove-${index}`).click();
  }
}
