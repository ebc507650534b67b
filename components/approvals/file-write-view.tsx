"use client";
import { formatBytes } from "@/lib/format-size";
import type { FileWrite } from "@/lib/approvals/file-write";
import type { CurrentFile } from "@/lib/approvals/preview-item";
import styles from "./approvals.module.css";
import { LineDiffView } from "./line-diff-view";
import { RenderedContent } from "./rendered-content";

/**
 * What a card knows about the file a write would replace: the file itself (see
 * {@link CurrentFile}), `loading`, `unknown` (the preview failed, with the reason), or
 * `off` (a decided approval: the file has moved on, so no diff is shown).
 */
export type FileNow = CurrentFile | { state: "loading" } | { state: "unknown"; message: string } | { state: "off" };

const bytes = formatBytes;

/** One line on what the write does to the file, e.g. "new file" or "changes the file (2 kB now)". */
function summary(now: FileNow, content: string): { kind: string; text: string } {
  switch (now.state) {
    case "missing":
      return { kind: "new", text: "new file" };
    case "text":
      return now.content === content ? { kind: "same", text: "no change: the file already holds this content" } : { kind: "change", text: `changes the file (${bytes(now.sizeBytes)} now)` };
    case "too_large":
      return { kind: "too_large", text: `replaces a file of ${bytes(now.sizeBytes)}` };
    case "binary":
      return { kind: "binary", text: `replaces a binary file of ${bytes(now.sizeBytes)}` };
    case "directory":
      return { kind: "directory", text: "the path is a folder: the write will fail" };
    case "refused":
      return { kind: "refused", text: now.message };
    case "loading":
      return { kind: "loading", text: "checking the file as it is now…" };
    case "unknown":
      return { kind: "unknown", text: now.message };
    case "off":
      return { kind: "off", text: "" };
  }
}

/** Why there is no line diff, for the states that have none. */
function noDiff(now: FileNow): string {
  switch (now.state) {
    case "too_large":
      return `The file is now ${bytes(now.sizeBytes)}, over the ${bytes(now.limitBytes)} a card compares: no line diff. The write replaces all of it with the content above.`;
    case "binary":
      return `The file is now a binary file (${bytes(now.sizeBytes)}), which has no lines to compare. The write replaces it with the text above.`;
    case "directory":
      return "The path names a folder, not a file: the tool will refuse to write it.";
    case "refused":
      return `${now.message} The tool will refuse this path.`;
    case "loading":
      return "Loading the file as it is now…";
    case "unknown":
      return `The file as it is now could not be loaded: ${now.message}`;
    default:
      return "";
  }
}

/**
 * A proposed file write, for a person to judge: the path, the size of the new content and
 * what it does to the file (new file, a change, no change), the content rendered
 * (Markdown) or as text, and the line diff against the file as it is now in the thread's
 * workspace (every line added for a new file).
 * @param now the file as it is now (see {@link FileNow}).
 * @param testId the section's test id (the edit panel shows a second view of the edit).
 */
export function FileWriteView({ write, now, testId = "file-write" }: { write: FileWrite; now: FileNow; testId?: string }) {
  const size = new TextEncoder().encode(write.content).byteLength;
  const { kind, text } = summary(now, write.content);
  return (
    <section className={styles.file} data-testid={testId} data-kind={kind} aria-label={`Write to ${write.path}`}>
      <p className={`small ${styles.fileHead}`}>
        Writes <code data-testid="file-write-path">{write.path}</code> · {bytes(size)}
        {text ? (
          <>
            {" "}
            · <strong data-testid="file-write-kind">{text}</strong>
          </>
        ) : null}
      </p>
      <div className={styles.section}>
        <h4>Content</h4>
        <RenderedContent path={write.path} content={write.content} />
      </div>
      {now.state === "off" ? null : (
        <div className={styles.section}>
          <h4>Changes against the file as it is now</h4>
          {now.state === "missing" ? (
            <LineDiffView before={null} after={write.content} />
          ) : now.state === "text" ? (
            <LineDiffView before={now.content} after={write.content} />
          ) : (
            <p className="small muted" data-testid="line-diff" data-state={now.state} role={now.state === "unknown" ? "alert" : undefined}>
              {noDiff(now)}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
