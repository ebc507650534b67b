import type { ReactNode } from "react";

/** Text with `backtick` spans shown as code (the operations' descriptions use them for names and values). */
export function InlineCode({ text }: { text: string }): ReactNode {
  return text.split(/(`[^`]+`)/g).map((part, i) =>
    part.startsWith("`") && part.endsWith("`") && part.length > 1 ? (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string never move
      <code key={i}>{part.slice(1, -1)}</code>
    ) : (
      part
    ),
  );
}
