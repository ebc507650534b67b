import { test as base, type Browser, type BrowserContext, expect } from "@playwright/test";

/**
 * The e2e suite's `test` and `expect`: every spec imports them from here, never from
 * `@playwright/test`, so that every page a test opens is held to "zero console errors".
 *
 * An automatic fixture listens, for the whole test, to every browser context the test uses
 * (the default `context` and any made with `browser.newContext()`): each `console` message of
 * type "error" (React hydration errors, failed resource loads, uncaught promise rejections
 * logged by the app, CSP reports) and each uncaught page error (`weberror`). When the test
 * ends, it fails if any was seen, listing them with the page URL they came from.
 *
 * Some errors are the behaviour under test, for example the 403 a viewer's browser logs when a
 * page loads a resource the viewer may not read. Allow them explicitly, as narrowly as possible:
 * - for one test: `consoleErrors.allow(/status of 403/)` inside the test (ask for the
 *   `consoleErrors` fixture in its arguments);
 * - for a file or a describe block: `test.use({ allowedConsoleErrors: [/status of 403/] })`.
 * A pattern is a RegExp tested against "<message> (at <url>)", or a string that must occur in
 * it. An allowance is a statement that the message is expected; it is not a way to mute a bug.
 */

/** One error seen in the browser: its text and where it came from. */
export type SeenConsoleError = { kind: "console" | "pageerror"; text: string; url: string };

/** Per-test control of the console check (see this module's JSDoc). */
export type ConsoleErrors = {
  /** Marks messages matching `pattern` as expected in this test. */
  allow(pattern: string | RegExp): void;
  /** The errors seen so far, allowed or not (for tests that assert on them). */
  seen(): readonly SeenConsoleError[];
};

type Fixtures = {
  /** Patterns of console errors expected in every test of a file or describe block. */
  allowedConsoleErrors: (string | RegExp)[];
  consoleErrors: ConsoleErrors;
};

const describe = (e: SeenConsoleError) => `${e.text}${e.url ? ` (at ${e.url})` : ""}`;
const matches = (pattern: string | RegExp, line: string) => (typeof pattern === "string" ? line.includes(pattern) : pattern.test(line));

/** Attaches the error listeners to one browser context, once. */
function watch(context: BrowserContext, seen: SeenConsoleError[], watched: WeakSet<BrowserContext>): void {
  if (watched.has(context)) return;
  watched.add(context);
  context.on("console", (message) => {
    if (message.type() !== "error") return;
    seen.push({ kind: "console", text: message.text(), url: message.location().url || (message.page()?.url() ?? "") });
  });
  context.on("weberror", (error) => {
    const err = error.error();
    seen.push({ kind: "pageerror", text: `${err.name}: ${err.message}`, url: error.page()?.url() ?? "" });
  });
}

export const test = base.extend<Fixtures>({
  allowedConsoleErrors: [[], { option: true }],
  consoleErrors: [
    async ({ context, browser, allowedConsoleErrors }, use) => {
      const seen: SeenConsoleError[] = [];
      const allowed: (string | RegExp)[] = [...allowedConsoleErrors];
      const watched = new WeakSet<BrowserContext>();
      watch(context, seen, watched);
      // Contexts a test makes itself (a second user signed in) are watched too: the worker's
      // browser is shared, so the wrapper is put back when the test ends.
      const original = browser.newContext.bind(browser);
      const wrapped: Browser["newContext"] = async (...args) => {
        const made = await original(...args);
        watch(made, seen, watched);
        return made;
      };
      browser.newContext = wrapped;
      try {
        await use({ allow: (pattern) => void allowed.push(pattern), seen: () => seen });
      } finally {
        browser.newContext = original;
      }
      const unexpected = seen.filter((e) => !allowed.some((p) => matches(p, describe(e))));
      if (unexpected.length > 0) {
        throw new Error(`The browser reported ${unexpected.length} error(s) (see e2e/fixtures.ts to allow an expected one):\n` + unexpected.map((e) => `  - [${e.kind}] ${describe(e)}`).join("\n"));
      }
    },
    { auto: true },
  ],
});

export { expect };
