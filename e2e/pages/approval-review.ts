import { expect, type Locator, type Page } from "@playwright/test";

/**
 * Errors a page reports while a test runs: console errors (React's hydration errors among
 * them) and uncaught exceptions. Listen before the page loads.
 */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`pageerror: ${err.message}`));
  return errors;
}

/** Page object: one approval card's file-write view and its edit form. */
export class ApprovalReview {
  constructor(readonly card: Locator) {}

  fileWrite(): Locator {
    return this.card.getByTestId("file-write");
  }
  rendered(scope: Locator = this.fileWrite()): Locator {
    return scope.getByTestId("file-rendered");
  }
  lineDiff(scope: Locator = this.fileWrite()): Locator {
    return scope.getByTestId("line-diff");
  }
  /** The text of the diff's rows of one kind (add, del, same), in order. */
  async diffLines(kind: "add" | "del" | "same", scope: Locator = this.fileWrite()): Promise<string[]> {
    return this.lineDiff(scope).locator(`tr[data-kind="${kind}"] [data-testid="diff-line-text"]`).allTextContents();
  }
  field(name: string): Locator {
    return this.card.getByTestId(`edit-field-${name}`);
  }
  /** Opens Edit and waits for the form generated from the tool's input schema. */
  async openForm(): Promise<void> {
    await this.card.getByTestId("edit").click();
    await expect(this.card.getByTestId("edit-panel")).toHaveAttribute("data-mode", "form");
  }
}
