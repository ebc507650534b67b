import { Brain, SearchX, Users } from "lucide-react";
import Link from "next/link";
import { FACTS_IN_CONTEXT, SHORT_TERM_IN_CONTEXT } from "@/lib/memory/types";
import { memoryHref } from "./memory-url";

/**
 * The memory page's empty states, each saying what to do next: a workspace with
 * no memory yet (what memory is and the three ways facts get there), filters that match
 * nothing (clear them), and a user in no workspace.
 */

/** What memory is, in two sentences; shown on the empty page and under the title. */
export function MemoryExplainer() {
  return (
    <p className="muted small" data-testid="memory-explainer">
      Memory is what the agents of a workspace know across runs. Before each step, an agent gets its thread's last {SHORT_TERM_IN_CONTEXT} short-term entries and the {FACTS_IN_CONTEXT} accepted facts
      most relevant to the step; the run view shows what was injected.
    </p>
  );
}

/** A workspace without facts yet: how facts get there. */
export function NoMemory({ canEdit }: { canEdit: boolean }) {
  return (
    <div className="card muted" data-testid="memory-empty">
      <Brain className="icon empty-icon" size={28} />
      <p>
        <strong>This workspace remembers nothing yet.</strong> Facts get here three ways:
      </p>
      <ul>
        <li>an agent remembers one during a run (the remember tool), and it is listed here with the thread and step it came from;</li>
        <li>
          when a run completes, the results of its steps are proposed as facts: accept the ones worth keeping here (status “Proposed”) or on the thread's <strong>Memory</strong> tab;
        </li>
        <li>{canEdit ? "you add one by hand with the form below." : "an owner or approver adds one by hand on this page."}</li>
      </ul>
    </div>
  );
}

/** Filters that match no fact: what was asked and a link back to every fact. */
export function NoMatch({ what, workspaceId }: { what: string; workspaceId: string }) {
  return (
    <div className="card muted" data-testid="memory-empty-filtered">
      <SearchX className="icon empty-icon" size={28} />
      <p>
        <strong>No facts match {what}.</strong> Search looks at the words of each fact and, with an embedding model configured, at its meaning; try fewer or other words.
      </p>
      <p className="small">
        <Link href={memoryHref({ workspace: workspaceId })} data-testid="memory-clear-filters">
          Show every fact of this workspace
        </Link>
      </p>
    </div>
  );
}

/** The user belongs to no workspace. */
export function NoWorkspace() {
  return (
    <p className="card muted" data-testid="memory-no-workspace">
      <Users className="icon empty-icon" size={28} />
      You are in no workspace yet, so there is no memory to show. Create a flow from a template on <Link href="/flows">Flows</Link>: it gives you a workspace, and its runs start filling its memory.
    </p>
  );
}
