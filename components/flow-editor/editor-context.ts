"use client";

import { createContext, useContext } from "react";
import type { PolicyNodeType } from "@/lib/flow/react-flow";
import type { FlowProblem } from "@/lib/flow/validate";

/** A tool of the workspace catalog, as the editor shows it. */
export interface CatalogTool {
  name: string;
  description: string;
  sideEffect: boolean;
  /** "builtin" or "mcp:<server>" (lib/tools/types.ts ToolCatalogEntry). */
  source?: string;
  /** The input schema as JSON Schema, for display. */
  inputSchema?: unknown;
}

/** What custom nodes need beyond their own data: the tool catalog and the flow's policies. */
export interface EditorContextValue {
  tools: ReadonlyMap<string, CatalogTool>;
  /** Policy nodes in document order (first matching rule decides). */
  policies: readonly PolicyNodeType[];
  /** Live validation problems by node id (lib/flow/validate.ts), shown on the nodes. */
  problems: ReadonlyMap<string, readonly FlowProblem[]>;
}

export const EditorContext = createContext<EditorContextValue>({ tools: new Map(), policies: [], problems: new Map() });

/** The editor's catalog and policies, for custom nodes rendered inside React Flow. */
export function useEditorContext(): EditorContextValue {
  return useContext(EditorContext);
}
