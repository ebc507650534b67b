import type { Page } from "@playwright/test";

/**
 * Page object: records every text the run view's answer bubbles (`final-answer`) showed, as it
 * changed (a MutationObserver installed before the app's scripts run), so a test can tell an
 * answer that appeared word by word from one that appeared whole (docs/runs.md "Streaming").
 */
export class AnswerRecorder {
  constructor(readonly page: Page) {}

  /** Installs the observer in every page the tab opens from now on. */
  async install(): Promise<void> {
    await this.page.addInitScript(() => {
      const w = window as unknown as { __answerTexts: string[] };
      w.__answerTexts = [];
      const record = () => {
        const last = [...document.querySelectorAll('[data-testid="final-answer"]')].at(-1);
        const text = last?.textContent ?? "";
        if (text && w.__answerTexts.at(-1) !== text) w.__answerTexts.push(text);
      };
      new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
    });
  }

  /** The texts the last answer bubble showed, in order. */
  async texts(): Promise<string[]> {
    return this.page.evaluate(() => (window as unknown as { __answerTexts: string[] }).__answerTexts);
  }
}
