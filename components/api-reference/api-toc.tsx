import type { OpenApiDocument } from "@/lib/openapi/document";
import styles from "./api-reference.module.css";
import { tagAnchor } from "./tag-anchor";

/** A path that may wrap after each slash (not inside a segment) in the narrow column. */
function BreakablePath({ path }: { path: string }) {
  return path
    .split("/")
    .filter(Boolean)
    .map((seg, i) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: the segments of one fixed path never move
      <span key={i}>
        /<wbr />
        {seg}
      </span>
    ));
}

/** The reference's table of contents: each tag, and under it each operation (method and path), linking to them on the page. */
export function ApiToc({ doc }: { doc: OpenApiDocument }) {
  const groups = doc.tags.map((tag) => ({
    tag,
    ops: Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op.tags.includes(tag.name))
        .map(([method, op]) => ({ path, method, op })),
    ),
  }));
  return (
    <nav className={styles.toc} aria-label="API reference contents" data-testid="api-toc">
      <p className={styles.tocTitle}>Contents</p>
      <ul>
        <li>
          <a href="#getting-started">Getting started</a>
        </li>
        {groups.map(({ tag, ops }) => (
          <li key={tag.name}>
            <a href={`#${tagAnchor(tag.name)}`}>{tag.name}</a>
            <ul>
              {ops.map(({ path, method, op }) => (
                <li key={op.operationId}>
                  <a href={`#${op.operationId}`} title={op.summary}>
                    <span className={`${styles.tocMethod} ${styles[`m${method.toUpperCase()}`] ?? ""}`}>{method.toUpperCase()}</span> <BreakablePath path={path.replace(/^\/api/, "")} />
                  </a>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </nav>
  );
}
