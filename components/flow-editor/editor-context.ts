"use client";

import { createContext, useContext } from "react";
import type { PolicyNodeType } from "@/lib/flow/react-flow";

/** A tool of the workspace catalog, as the editor shows it. */
export interface CatalogTool {
  name: string;
  description: string;
  sideEffect: boolean;
}

/** What custom nodes need beyond their own data: the tool catalog and the flow's policies. */
export interface EditorContextValue {
  tools: ReadonlyMap<string, CatalogTool>;
  /** Policy nodes in document order (first matching rule decides, SPEC.md 4). */
  policies: readonly PolicyNodeType[];
}

export const EditorContext = createContext<EditorContextValue>({ tools: new Map(), policies: [] });

/** The editor's catalog and policies, for custom nodes rendered inside React Flow. */
export function useEditorContext(): EditorContextValue {
  return useContext(EditorContext);
}
