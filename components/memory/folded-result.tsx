import { formatChars } from "@/lib/format-size";

/** A short-term entry's result: shown whole up to 200 chars, else folded behind its first 120 chars with its length. */
export function FoldedResult({ text }: { text: string }) {
  if (text.length <= 200) return <>{text}</>;
  return (
    <details>
      <summary>
        {text.slice(0, 120)}… <span className="muted">({formatChars(text.length)})</span>
      </summary>
      <pre className="small">{text}</pre>
    </details>
  );
}
