"use client";

import { TriangleAlert } from "lucide-react";
import { type DragEvent, useId } from "react";
import { AgentIcon } from "@/components/ui/agent-icon";
import { PALETTE, type PaletteKey } from "@/lib/flow/node-defaults";
import type { CatalogTool } from "./editor-context";
import styles from "./flow-editor.module.css";
import { KindIcon } from "./kind-icon";

/** The drag-and-drop payload type of a palette item (JSON `{ key, tool }`). */
export const PALETTE_MIME = "application/x-phylactery-palette";

/** What a palette item adds: the item, and the catalog tool a Tool node binds. */
export interface PaletteDrop {
  key: PaletteKey;
  tool: string;
}

/** Reads a palette drop from a drag event; null for anything else (files, text). */
export function readPaletteDrop(e: DragEvent): PaletteDrop | null {
  const raw = e.dataTransfer.getData(PALETTE_MIME);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<PaletteDrop>;
    const item = PALETTE.find((p) => p.key === value.key);
    return item && typeof value.tool === "string" ? { key: item.key, tool: value.tool } : null;
  } catch {
    return null;
  }
}

/** True while a palette item is dragged over (the payload itself is only readable on drop). */
export function isPaletteDrag(e: DragEvent): boolean {
  return e.dataTransfer.types.includes(PALETTE_MIME);
}

/**
 * Where a catalog tool comes from: "builtin", or "mcp:<server name>" for a workspace's MCP
 * server (ToolCatalogEntry.source). The editor's CatalogTool does not declare it, so
 * it is read defensively; a tool without one counts as built-in.
 */
export function toolSource(tool: CatalogTool): string {
  const source = (tool as { source?: unknown }).source;
  return typeof source === "string" ? source : "builtin";
}

/** The heading of a source: "Built-in", "MCP server <name>", or the source itself. */
export function sourceLabel(source: string): string {
  if (source === "builtin") return "Built-in";
  if (source.startsWith("mcp:")) return `MCP server ${source.slice(4)}`;
  return source;
}

/** Tools grouped by source: built-ins first, then MCP servers by name, then anything else. */
export function groupBySource(tools: readonly CatalogTool[]): { source: string; label: string; tools: CatalogTool[] }[] {
  const groups = new Map<string, CatalogTool[]>();
  for (const t of tools) {
    const source = toolSource(t);
    const list = groups.get(source);
    if (list) list.push(t);
    else groups.set(source, [t]);
  }
  const rank = (s: string) => (s === "builtin" ? 0 : s.startsWith("mcp:") ? 1 : 2);
  return [...groups.entries()].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b)).map(([source, list]) => ({ source, label: sourceLabel(source), tools: list }));
}

export interface PaletteProps {
  tools: readonly CatalogTool[];
  /** The catalog tool new Tool nodes bind. */
  tool: string;
  onToolChange: (tool: string) => void;
  /** Click or Enter on an item: add it at the centre of the view. */
  onAdd: (drop: PaletteDrop) => void;
}

/**
 * The node palette (docs/architecture.md#flows-and-compilation): every node kind, dragged onto the canvas (HTML5
 * drag and drop) or added at the centre of the view with a click or Enter. The Tool item
 * has a select of the catalog tool it binds, grouped by source (built-in, each MCP
 * server), and a list of the workspace's tools by source to pick from.
 */
export function Palette({ tools, tool, onToolChange, onAdd }: PaletteProps) {
  const id = useId();
  const groups = groupBySource(tools);
  return (
    <nav className={styles.palette} aria-label="Node palette" data-testid="palette">
      <h2 className={styles.paletteTitle}>Add a node</h2>
      <p className={styles.paletteHint}>Drag onto the canvas, or click to add in the middle.</p>
      <ul className={styles.paletteList}>
        {PALETTE.map((item) => {
          const drop = { key: item.key, tool };
          return (
            <li key={item.key}>
              {/* A div, not a <button>: Firefox never starts a drag on a button. */}
              {/* biome-ignore lint/a11y/useSemanticElements: see above; role, tabIndex and keys make it a button */}
              <div
                role="button"
                tabIndex={0}
                draggable
                className={styles.paletteItem}
                data-kind={item.kind}
                data-testid={`palette-${item.key}`}
                title={item.description}
                aria-describedby={`${id}-${item.key}`}
                onDragStart={(e) => {
                  e.dataTransfer.setData(PALETTE_MIME, JSON.stringify(drop));
                  e.dataTransfer.effectAllowed = "copy";
                }}
                onClick={() => onAdd(drop)}
                onKeyDown={(e) => {
                  if (e.key !== "Enter" && e.key !== " ") return;
                  e.preventDefault();
                  onAdd(drop);
                }}
              >
                <span className={styles.paletteLabel}>
                  {item.key === "reviewer" ? <AgentIcon icon="search" /> : <KindIcon kind={item.kind} />} {item.label}
                </span>
                <span id={`${id}-${item.key}`} className={styles.paletteDescription}>
                  {item.description}
                </span>
              </div>
              {item.key === "tool" && (
                <label className={styles.paletteTool}>
                  <span>binds</span>
                  <select value={tool} onChange={(e) => onToolChange(e.target.value)} data-testid="palette-tool-select">
                    {groups.map((g) => (
                      <optgroup key={g.source} label={g.label}>
                        {g.tools.map((t) => (
                          <option key={t.name} value={t.name}>
                            {t.name}
                            {t.sideEffect ? " (side effects)" : ""}
                          </option>
                        ))}
                      </optgroup>
                    ))}
                  </select>
                </label>
              )}
              {item.key === "tool" && (
                <details className={styles.paletteHint} data-testid="palette-catalog">
                  <summary>Tools by source ({tools.length})</summary>
                  {groups.map((g) => (
                    <div key={g.source} data-testid={`palette-catalog-group-${g.source}`}>
                      <strong>{g.label}</strong>
                      <ul style={{ listStyle: "none", margin: "2px 0 6px", padding: 0 }}>
                        {g.tools.map((t) => (
                          <li key={t.name}>
                            <button
                              type="button"
                              className="link"
                              aria-pressed={t.name === tool}
                              title={t.description}
                              onClick={() => onToolChange(t.name)}
                              data-testid={`palette-catalog-${t.name}`}
                              style={{ fontWeight: t.name === tool ? 600 : 400, overflowWrap: "anywhere", textAlign: "left" }}
                            >
                              {t.name}
                            </button>
                            {t.sideEffect ? (
                              <span title="side effects">
                                {" "}
                                <TriangleAlert size={12} aria-hidden style={{ verticalAlign: "-0.1em" }} />
                                <span className="sr-only"> (side effects)</span>
                              </span>
                            ) : null}
                          </li>
                        ))}
                      </ul>
                    </div>
                  ))}
                </details>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
