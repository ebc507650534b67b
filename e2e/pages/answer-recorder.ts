import type { Page } from "@playwright/test";

/**
 * Page object: records every text the run view's answer bubbles (`final-answer`) showed, as it
 * changed (a MutationObserver installed before the app's scripts run), so a test can tell an
 * answer that appeared word by word from one that appeared whole (docs/runs.md "Streaming").
 * Another test id records another element the same way (e.g. `step-live-text`, a running
 * step's text).
 */
export class AnswerRecorder {
  constructor(
    readonly page: Page,
    readonly testId = "final-answer",
  ) {}

  /** Installs the observer in every page the tab opens from now on. */
  async install(): Promise<void> {
    await this.page.addInitScript((testId) => {
      const w = window as unknown as { __recordedTexts: Record<string, string[]> };
      w.__recordedTexts ??= {};
      const texts: string[] = [];
      w.__recordedTexts[testId] = texts;
      const record = () => {
        const last = [...document.querySelectorAll(`[data-testid="${testId}"]`)].at(-1);
        const text = last?.textContent ?? "";
        if (text && texts.at(-1) !== text) texts.push(text);
      };
      new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
    }, this.testId);
  }

  /** The texts the last such element showed, in order. */
  async texts(): Promise<string[]> {
    return this.page.evaluate((testId) => (window as unknown as { __recordedTexts: Record<string, string[]> }).__recordedTexts[testId] ?? [], this.testId);
  }
}
