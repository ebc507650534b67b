import { FlowLibrary } from "../flow/schema";
import { libraryFilesDirFor } from "../tools/library";

/** What {@link mountedLibraryDir} reads of a thread: its flow's workspace and its pinned flow version. */
export interface ThreadWithFlow {
  flow: { workspaceId: string };
  flowVersion: { document: string };
}

/**
 * The library folder a thread's file tools see (docs/library.md "Mounting"): its flow's
 * workspace library when the thread's pinned flow version mounts it (`settings.library.mount`,
 * on unless switched off), else undefined. The run view's file list, downloads and zip read
 * through it, so they show what the tools show.
 * @param workspacesDir the WORKSPACES_DIR.
 */
export function mountedLibraryDir(workspacesDir: string, thread: ThreadWithFlow): string | undefined {
  let library: unknown;
  try {
    library = (JSON.parse(thread.flowVersion.document) as { settings?: { library?: unknown } })?.settings?.library;
  } catch {
    return undefined;
  }
  const parsed = FlowLibrary.safeParse(library ?? {});
  return parsed.success && parsed.data.mount ? libraryFilesDirFor(workspacesDir, thread.flow.workspaceId) : undefined;
}
