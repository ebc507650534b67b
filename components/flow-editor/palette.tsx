"use client";

import { type DragEvent, useId } from "react";
import { PALETTE, type PaletteKey } from "@/lib/flow/node-defaults";
import type { CatalogTool } from "./editor-context";
import styles from "./flow-editor.module.css";

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

export interface PaletteProps {
  tools: readonly CatalogTool[];
  /** The catalog tool new Tool nodes bind. */
  tool: string;
  onToolChange: (tool: string) => void;
  /** Click or Enter on an item: add it at the centre of the view. */
  onAdd: (drop: PaletteDrop) => void;
}

/**
 * The node palette (SPEC.md 1, issue 5): every node kind, dragged onto the canvas (HTML5
 * drag and drop) or added at the centre of the view with a click or Enter. The Tool item
 * has a select of the catalog tool it binds.
 */
export function Palette({ tools, tool, onToolChange, onAdd }: PaletteProps) {
  const id = useId();
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
                <span className={styles.paletteLabel}>{item.label}</span>
                <span id={`${id}-${item.key}`} className={styles.paletteDescription}>
                  {item.description}
                </span>
              </div>
              {item.key === "tool" && (
                <label className={styles.paletteTool}>
                  <span>binds</span>
                  <select value={tool} onChange={(e) => onToolChange(e.target.value)} data-testid="palette-tool-select">
                    {tools.map((t) => (
                      <option key={t.name} value={t.name}>
                        {t.name}
                        {t.sideEffect ? " (side effects)" : ""}
                      </option>
                    ))}
                  </select>
                </label>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
