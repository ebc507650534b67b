import { expect, type Locator, type Page } from "@playwright/test";

/**
 * Page object: the memory page (/memory) with its search, status filter, fact
 * list, "Add a fact" form and the Forget confirmation; and a thread's Memory tab and
 * "Delete thread".
 */
export class MemoryPage {
  constructor(readonly page: Page) {}

  async open(query = ""): Promise<void> {
    await this.page.goto(`/memory${query}`);
    await expect(this.page.getByRole("heading", { name: "Memory", level: 1 })).toBeVisible();
  }

  /** Every listed fact. */
  facts(): Locator {
    return this.page.getByTestId("fact");
  }
  /** The listed fact whose content contains `text`. */
  fact(text: string): Locator {
    return this.facts().filter({ has: this.page.getByTestId("fact-content").filter({ hasText: text }) });
  }

  /** Adds a fact by hand and waits for the form to say so. */
  async addFact(content: string, tags = ""): Promise<void> {
    await this.page.getByTestId("add-fact-content").fill(content);
    await this.page.getByTestId("add-fact-tags").fill(tags);
    await this.page.getByTestId("add-fact-submit").click();
    await expect(this.page.getByTestId("add-fact-done")).toContainText(content.slice(0, 40));
  }

  /** Searches and waits for the URL to carry the query. */
  async search(q: string): Promise<void> {
    await this.page.getByTestId("memory-search").fill(q);
    await this.page.getByTestId("memory-search-submit").click();
    await this.page.waitForURL((url) => url.searchParams.get("q") === q);
  }

  forgetDialog(): Locator {
    return this.page.getByTestId("forget-dialog");
  }
}

/** Page object: a thread's Memory tab. */
export class ThreadMemoryTab {
  constructor(readonly page: Page) {}

  panel(): Locator {
    return this.page.getByTestId("thread-memory");
  }
  /** Opens the tab and waits for its sections to load. */
  async open(): Promise<void> {
    await this.page.getByTestId("tab-memory").click();
    await expect(this.page.getByTestId("short-term")).toBeVisible();
  }
  entries(): Locator {
    return this.page.getByTestId("short-term-entry");
  }
  proposed(): Locator {
    return this.page.getByTestId("proposed-fact");
  }
  notice(): Locator {
    return this.page.getByTestId("thread-memory-notice");
  }
}
