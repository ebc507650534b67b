/**
 * Pieces of a live text placed by offset (docs/durability.md "Live streams"): a text streamed
 * between processes goes in pieces, each carrying its offset in the text (chars, UTF-16 code
 * units as JavaScript counts them). A follower places each piece on the text it holds, so a
 * repeated piece (the text so far sent again to a late follower) adds nothing, an overlapping
 * one adds only its new end, and a piece after a gap (a lost notification) is refused: the
 * follower never shows a text with a hole in it.
 */

/** A piece of text and its offset in the whole (chars). */
export interface TextPiece {
  at: number;
  text: string;
}

/**
 * What a piece adds to the text held so far.
 * @param held the text held (chars 0 to held.length).
 * @param at the piece's offset in the whole text (chars, >= 0).
 * @param piece the piece's text.
 * @returns the chars to append to `held` ("" when the piece holds nothing new), or null when
 *   the piece starts after the end of `held` (a gap: it cannot be placed).
 */
export function placePiece(held: string, at: number, piece: string): string | null {
  if (!Number.isInteger(at) || at < 0) return "";
  if (at > held.length) return null;
  const end = at + piece.length;
  if (end <= held.length) return "";
  return piece.slice(held.length - at);
}

/**
 * Splits `text` from offset `from` into pieces of at most `maxChars` chars, never cutting a
 * surrogate pair (a piece may then hold `maxChars - 1` chars).
 * @returns the pieces with their offsets, in order (none when `from` >= text.length).
 * @throws RangeError when `maxChars` < 2.
 */
export function piecesOf(text: string, from: number, maxChars: number): TextPiece[] {
  if (maxChars < 2) throw new RangeError("piecesOf: maxChars must be at least 2");
  const out: TextPiece[] = [];
  let at = Math.max(0, from);
  while (at < text.length) {
    let end = Math.min(text.length, at + maxChars);
    // A high surrogate at the cut: its pair goes with the next piece.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
    out.push({ at, text: text.slice(at, end) });
    at = end;
  }
  return out;
}

/** The live text held for one step (the run view): the model call it comes from, and its text so far. */
export interface HeldStepText {
  /** The live id of the model call (a step's later call replaces an earlier one's text). */
  id: string;
  text: string;
}

/**
 * The step text held after a piece of call `id` at offset `at` arrives: a new call's text
 * starts at offset 0 (a piece of it further on waits for the finished text); a piece of the
 * same call is placed with {@link placePiece}.
 * @returns the new holding, or `held` itself when the piece changes nothing.
 */
export function placeStepText(held: HeldStepText | undefined, id: string, at: number, delta: string): HeldStepText | undefined {
  if (!held || held.id !== id) return at === 0 && delta ? { id, text: delta } : held;
  const added = placePiece(held.text, at, delta);
  return added ? { id, text: held.text + added } : held;
}
