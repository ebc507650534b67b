import { describe, expect, it } from "vitest";
import { redactSecrets } from "../engine/safe-state";
import { redactCommandTokens, redactTokenShapes, redactTokensIn } from "./token-redaction";

const R = "[redacted]";
/** A token as signChallenge makes them: 43 base64url characters. */
const TOKEN = "Qx7_k2LmZ9-aB3cD4eF5gH6iJ7kL8mN9oP0qR1sT2uV";
const ID = "apv_AbCdEfGhIjKlMnOpQrStUvWx";
const fullwidth = (s: string) => [...s].map((c) => (c >= "!" && c <= "~" ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join("");
const CYRILLIC_A = "\u0410";

describe("redactTokensIn: a live token, in every form it may be typed", () => {
  const forms: [string, string][] = [
    ["the accepted form", `APPROVE ${ID} ${TOKEN}`],
    ["lower case", `approve ${ID} ${TOKEN}`],
    ["a look-alike letter in the verb", `${CYRILLIC_A}PPROVE ${ID} ${TOKEN}`],
    ["the token before the id", `APPROVE ${TOKEN} ${ID}`],
    ["the token alone", TOKEN],
    ["extra punctuation", `approve: ${ID}, token="${TOKEN}".`],
    ["inside a sentence, glued to a word", `ok go${TOKEN}now thanks`],
    ["fullwidth", `APPROVE ${ID} ${fullwidth(TOKEN)}`],
    ["look-alike letters inside the token", `APPROVE ${ID} ${TOKEN.replace("a", "\u0430").replace("o", "\u03BF")}`],
    ["a zero-width space inside the token", `APPROVE ${ID} ${TOKEN.slice(0, 20)}\u200B${TOKEN.slice(20)}`],
    ["split by spaces", `APPROVE ${ID} ${TOKEN.slice(0, 15)} ${TOKEN.slice(15, 30)} ${TOKEN.slice(30)}`],
    ["in another case", `approve ${ID} ${TOKEN.toLowerCase()}`],
  ];
  for (const [name, text] of forms) {
    it(`redacts ${name}`, () => {
      const out = redactTokensIn(text, [TOKEN], R);
      expect(out).toContain(R);
      expect(out.toLowerCase()).not.toContain(TOKEN.slice(0, 12).toLowerCase());
      expect(out.toLowerCase()).not.toContain(TOKEN.slice(-12).toLowerCase());
      expect(out).toContain(text.includes(ID) ? ID : "");
    });
  }

  it("keeps the rest of the text as typed, and leaves text without the token alone", () => {
    expect(redactTokensIn(`approve ${ID} ${TOKEN} please`, [TOKEN], R)).toBe(`approve ${ID} ${R} please`);
    const other = "Summarize notes.md into summary.md, then write a haiku about it for the team.";
    expect(redactTokensIn(other, [TOKEN], R)).toBe(other);
    expect(redactTokensIn(`APPROVE ${ID} ${TOKEN}`, [], R)).toBe(`APPROVE ${ID} ${TOKEN}`);
  });
});

describe("redactTokenShapes: what looks like a token, without knowing it (replays)", () => {
  it("redacts a 43-character base64url word in any form, and the token of an APPROVE command", () => {
    expect(redactTokenShapes(`approve ${ID} ${TOKEN}`, R)).toBe(`approve ${ID} ${R}`);
    expect(redactTokenShapes(`${CYRILLIC_A}PPROVE ${ID} ${TOKEN}`, R)).toBe(`${CYRILLIC_A}PPROVE ${ID} ${R}`);
    // The token before the id: the word after it reads as the command's token and goes too.
    expect(redactTokenShapes(`APPROVE ${TOKEN} ${ID}`, R)).toBe(`APPROVE ${R} ${R}`);
    expect(redactTokenShapes(`approve ${TOKEN} ${ID}`, R)).toBe(`approve ${R} ${ID}`);
    expect(redactTokenShapes(`token: ${fullwidth(TOKEN)}!`, R)).toBe(`token: ${R}!`);
    expect(redactTokenShapes("APROBAR abc123 tok_456789 now", R)).toBe(`APROBAR abc123 ${R} now`);
  });

  it("keeps ordinary text, ids, hashes and API-key-length words", () => {
    const kept = [
      "Summarize notes.md into summary.md",
      `approve ${ID}`,
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
      `phy_${TOKEN}`,
      "a-very-long-kebab-case-file-name-without-any.md",
    ];
    for (const t of kept) expect(redactTokenShapes(t, R)).toBe(t);
  });
});

describe("redactCommandTokens: stored events", () => {
  it("redacts the token of an APPROVE command, look-alike verbs included, and keeps other 43-character values", () => {
    expect(redactCommandTokens(`APPROVE ${ID} ${TOKEN}`, R)).toBe(`APPROVE ${ID} ${R}`);
    expect(redactCommandTokens(`${CYRILLIC_A}PPROVE ${ID} ${TOKEN}`, R)).toBe(`${CYRILLIC_A}PPROVE ${ID} ${R}`);
    expect(redactCommandTokens(`digest ${TOKEN}`, R)).toBe(`digest ${TOKEN}`);
  });
});

describe("redactSecrets (every replay: run view, checkpoints, LangGraph state, history, search, values)", () => {
  it("redacts a token typed in a form the parser refuses", () => {
    const messages = [`approve ${ID} ${TOKEN}`, `\u0410PPROVE ${ID} ${TOKEN}`, `APPROVE ${TOKEN} ${ID}`, `here: ${fullwidth(TOKEN)}`].map((content) => ({ role: "user", content }));
    const out = JSON.stringify(redactSecrets({ messages }));
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain(fullwidth(TOKEN));
    expect(out).toContain(`approve ${ID} ${R}`);
  });
});
