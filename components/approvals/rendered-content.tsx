"use client";
import type { ComponentProps } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import styles from "./approvals.module.css";

/** Largest content rendered as Markdown, in chars (256,000); longer content shows as plain text. */
export const RENDER_MAX_CHARS = 256_000;

/** Markdown files, by extension: their content is rendered; everything else is shown as text. */
const MARKDOWN = /\.(md|markdown|mdown|mkd|mkdn|mdx)$/i;

/**
 * Images are named, never loaded: an approver reading a proposal must not make the browser
 * fetch addresses an agent chose (a tracking pixel, or a URL that carries data out).
 */
function ImageRef({ alt, src }: ComponentProps<"img">) {
  return (
    <span className={styles.imageRef}>
      [image{alt ? `: ${alt}` : ""}
      {typeof src === "string" && src ? ` (${src})` : ""}]
    </span>
  );
}

/** Links open in a new tab, without the referrer or the opener. */
function SafeLink({ href, children }: ComponentProps<"a">) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}

const components: Components = { img: ImageRef, a: SafeLink };

/**
 * A file's proposed content as a reader will see it: Markdown files (by extension)
 * rendered with GitHub-flavoured Markdown (tables, task lists), other files as plain text.
 * Raw HTML inside Markdown is never rendered: react-markdown shows it as text. Content over
 * {@link RENDER_MAX_CHARS} is shown as plain text, cut there, with a note.
 */
export function RenderedContent({ path, content }: { path: string; content: string }) {
  const cut = content.length > RENDER_MAX_CHARS;
  const text = cut ? content.slice(0, RENDER_MAX_CHARS) : content;
  const markdown = MARKDOWN.test(path) && !cut;
  return (
    <div className={styles.box} data-testid="file-rendered" data-format={markdown ? "markdown" : "text"}>
      {content === "" ? (
        <p className="small muted">The file will be empty.</p>
      ) : markdown ? (
        <div className={styles.markdown}>
          <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
            {text}
          </ReactMarkdown>
        </div>
      ) : (
        <pre className={styles.plain}>{text}</pre>
      )}
      {cut ? (
        <p className="small muted">
          Only the first {RENDER_MAX_CHARS.toLocaleString("en")} of {content.length.toLocaleString("en")} characters are shown, as plain text.
        </p>
      ) : null}
    </div>
  );
}
