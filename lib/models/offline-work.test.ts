import { generateText, type ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import type { FlowDocument } from "../flow/schema";
import { guidedSummary } from "../../templates/guided-summary";
import { researchBrief } from "../../templates/research-brief";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { cleanInline } from "./document-outline";
import { createOfflineModel } from "./offline";
import { fileTools } from "./offline-fixtures";
import { agentWith, type FakeWorkspace, heldOut, planFor, runPlan, runStep } from "./offline-run-fixture";
import { type AgentInfo, executorPrompt, executorSystem } from "./prompts";

/**
 * The default (offline) model on the tasks its templates suggest, run on held-out documents
 * (tests/fixtures/documents: meeting notes, a changelog, two READMEs of different shapes,
 * two research sources, files with to-dos), never the seeded workspace files. Assertions
 * are on what the model wrote.
 */

/** The agents of a template flow as the planner and executors see them (tools from the edges). */
function agentsOf(doc: FlowDocument): AgentInfo[] {
  return doc.nodes.flatMap((n) => {
    if (n.type !== "agent") return [];
    const data = n.data as { name: string; instructions: string };
    const tools = doc.edges
      .filter((e) => e.source === n.id)
      .flatMap((e) => {
        const t = doc.nodes.find((x) => x.id === e.target && x.type === "tool");
        return t ? [(t.data as { tool: string }).tool] : [];
      });
    return [{ id: n.id, name: data.name, instructions: data.instructions, tools: tools.map((name) => ({ name, description: `The ${name} tool.` })) }];
  });
}

function humansOf(doc: FlowDocument) {
  return doc.nodes.flatMap((n) => (n.type === "human_input" ? [{ id: n.id, name: (n.data as { name: string }).name, prompt: (n.data as { prompt: string }).prompt }] : []));
}

const assistant = agentsOf(workspaceAssistant);

/** Plans `task` for the Workspace assistant and runs it on a workspace holding `files` (held-out documents). */
async function summarise(file: string, target = "summary.md") {
  const ws: FakeWorkspace = new Map([[file, heldOut(file)]]);
  const steps = await planFor(`Summarize ${file} into ${target}`, assistant);
  const done = await runPlan(steps, assistant, ws);
  const written = ws.get(target);
  if (written === undefined) throw new Error(`nothing was written to ${target}: ${JSON.stringify(done.map((d) => d.result))}`);
  return { written, done };
}

/** The bullet and numbered lines of a Markdown text, without their markers. */
function items(md: string): string[] {
  return md
    .split("\n")
    .filter((l) => /^\s*(?:[-*]|\d+\.)\s/.test(l))
    .map((l) => l.replace(/^\s*(?:[-*]|\d+\.)\s+(?:\[[ x]\]\s+)?/, ""));
}

describe("default model: summaries keep the structure of the source", () => {
  it("meeting notes: sections, every decision and risk, every action item with its owner and date", async () => {
    const { written, done } = await summarise("ops-sync-notes.md");
    expect(done.map((d) => d.task)).toEqual(["Read ops-sync-notes.md", "Write a summary of ops-sync-notes.md to summary.md"]);
    expect(written.split("\n")[0]).toBe("# Summary of ops-sync-notes.md");
    const headings = written.split("\n").filter((l) => l.startsWith("#"));
    expect(headings).toEqual(["# Summary of ops-sync-notes.md", "## Context", "## Decisions", "## Risks", "## Action items"]);
    // Decisions stay a numbered list; action items stay a checklist, each with owner and date.
    expect(written).toContain("1. We decided to cut log retention from 90 to 30 days for non-audit logs.");
    expect(written).toContain("2. The team agreed to move the nightly backup window from 02:00 to 04:00 UTC.");
    expect(written).toContain("3. Audit logs stay at 400 days; legal must sign off on any change.");
    for (const risk of ["The Postgres 16 upgrade could slip", "Only two people know the billing export job", "the vendor contract for the new log store expires on 30 June"]) {
      expect(written).toContain(risk);
    }
    const actions: [string, string][] = [
      ["Jonas Berg", "due 19 May"],
      ["Mei Chen", "due 2026-05-26"],
      ["Dario Rossi", "by Friday 22 May"],
      ["Priya Raman", "due 2 June"],
      ["Jonas Berg", "due 15 June"],
    ];
    const section = written.slice(written.indexOf("## Action items"));
    for (const [owner, date] of actions) expect(section).toMatch(new RegExp(`^- \\[ \\] ${owner} — .*${date}$`, "m"));
    expect(section).toContain("Next sync: 26 May 2026.");
    // The step result says what was written, not the file's text.
    expect(done[1]?.result).toMatch(/^Wrote \d+ bytes to summary\.md\. The summary has \d+ points\.$/);
  });

  it("a changelog: each version and change type stays a section, the entries stay a list", async () => {
    const { written } = await summarise("CHANGELOG.md");
    const headings = written.split("\n").filter((l) => l.startsWith("#"));
    expect(headings).toEqual([
      "# Summary of CHANGELOG.md",
      "## [Unreleased]",
      "### Added",
      "## [3.1.0] - 2026-04-02",
      "### Added",
      "### Changed",
      "### Deprecated",
      "### Fixed",
      "### Security",
      "## [3.0.0] - 2026-01-15",
      "### Removed",
    ]);
    const release = written.slice(written.indexOf("## [3.1.0]"), written.indexOf("## [3.0.0]"));
    expect(items(release)).toEqual([
      "Markdown footnotes are rendered in the HTML output.",
      "`quill watch` rebuilds only the pages that changed.",
      "The default theme now uses the system font stack.",
      "Minimum Node.js version is 20.",
      "The `--legacy-toc` flag will be removed in 4.0.",
      "Images with spaces in their names no longer break the build.",
      "`quill serve` reloads the browser after a config change.",
      "Upgraded the YAML parser to fix CVE-2026-1234 (unsafe anchors).",
    ]);
  });

  it("a README with underlined headings, a numbered list, a code block and a table", async () => {
    const { written } = await summarise("README-setext.md");
    expect(written.split("\n").filter((l) => l.startsWith("#"))).toEqual(["# Summary of README-setext.md", "## Installation", "## Usage", "## Limitations", "## License"]);
    expect(written).toContain("_Lantern_");
    expect(written).toContain("- Lantern is a tiny HTTP health checker for small teams.");
    expect(written).toContain("- `go install example.com/lantern@latest`");
    // The steps stay numbered, in order; the table rows become items.
    expect(written).toMatch(/1\. Write a `lantern\.toml`.*\n2\. Run `lantern run --config lantern\.toml`\.\n3\. Open http:\/\/localhost:9300/);
    expect(written).toContain("- `interval` (Default: `30s`; Meaning: Time between two checks)");
    expect(written).toContain("- It does not check TLS certificate expiry yet.");
    expect(written).not.toContain("|");
  });

  it("a README with level-1 section headings, a badge and prose only", async () => {
    const { written } = await summarise("README-sections.md");
    expect(written.split("\n").filter((l) => l.startsWith("#"))).toEqual(["# Summary of README-sections.md", "## Getting started", "## How search works", "## Contributing", "## Maintainers"]);
    expect(written).toContain("_Tidewater_");
    expect(written).toContain("- An index of 200,000 rows takes about 4 seconds to build and 60 MB of memory.");
    expect(written).toContain("- Tidewater is maintained by Lena Ortiz and Sam Whitfield.");
    expect(written).not.toMatch(/badge|ci\.example\.com/);
  });
});

describe("default model: a Human-input answer shapes the summary", () => {
  const agents = agentsOf(guidedSummary);
  const humans = humansOf(guidedSummary);

  it("names the audience in the title and puts the focus first, sorted by date", async () => {
    const steps = await planFor("Summarize ops-sync-notes.md into summary.md", agents, humans);
    expect(steps.map((s) => [s.task, s.depends_on])).toEqual([
      ["Who is this summary for, and what should it focus on?", []],
      ["Read ops-sync-notes.md", [0]],
      ["Write a summary of ops-sync-notes.md to summary.md", [0, 1]],
    ]);
    const ws: FakeWorkspace = new Map([["ops-sync-notes.md", heldOut("ops-sync-notes.md")]]);
    await runPlan(steps, agents, ws, { audience: "for the engineering managers; focus on deadlines" });
    const written = ws.get("summary.md") ?? "";
    expect(written.split("\n")[0]).toBe("# Summary of ops-sync-notes.md for the engineering managers");
    const headings = written.split("\n").filter((l) => l.startsWith("## "));
    expect(headings[0]).toBe("## Deadlines");
    const deadlines = items(written.slice(written.indexOf("## Deadlines"), written.indexOf("## Overview")));
    expect(deadlines).toEqual([
      "Jonas Berg — apply the 30-day retention policy, due 19 May",
      "Dario Rossi — fix replica lag before the upgrade, by Friday 22 May",
      "Mei Chen — write the runbook for the billing export job, due 2026-05-26",
      "Next sync: 26 May 2026.",
      "Priya Raman — find a fifth on-call engineer, due 2 June",
      "Jonas Berg — renew or replace the log store contract, due 15 June",
      "Blocker: the vendor contract for the new log store expires on 30 June.",
    ]);
    // The rest of the summary is still there.
    expect(headings.slice(1)).toEqual(["## Overview", "## Context", "## Decisions", "## Risks", "## Action items"]);
  });

  it("says when it summarized only the start of a long file", async () => {
    const long = `# Log\n\n${"- The nightly job finished without errors.\n".repeat(200)}`;
    const writer = agentWith("w", "Writer", "Write.", ["write_file"]);
    const ws: FakeWorkspace = new Map();
    const read = await runStep(agentWith("r", "Reader", "Read.", ["read_file"]), "Read big.md", [], new Map([["big.md", long]]));
    expect(read.text).toMatch(/\n\[… cut at 6000 characters\]$/);
    await runStep(writer, "Write a summary of big.md to summary.md", [{ task: "Read big.md", result: read.text }], ws);
    expect(ws.get("summary.md")).toContain("_Only the start of big.md was read; the rest is not summarized._");
    expect(ws.get("summary.md")).not.toContain("cut at");
  });

  it("another answer gives another summary; no answer gives the plain one", async () => {
    const context = (answer?: string) => [
      ...(answer ? [{ task: "Who is this summary for, and what should it focus on?", result: answer }] : []),
      { task: "Read README-setext.md", result: `Read 940 characters from README-setext.md:\n${heldOut("README-setext.md")}` },
    ];
    const writer = agentsOf(guidedSummary).find((a) => a.id === "writer") as AgentInfo;
    const write = async (answer?: string) => {
      const ws: FakeWorkspace = new Map();
      await runStep(writer, "Write a summary of README-setext.md to summary.md", context(answer), ws);
      return ws.get("summary.md") ?? "";
    };
    const plain = await write();
    const newcomers = await write("New contributors. Focus on limitations");
    expect(plain.split("\n")[0]).toBe("# Summary of README-setext.md");
    expect(newcomers.split("\n")[0]).toBe("# Summary of README-setext.md for New contributors");
    expect(newcomers.split("\n").find((l) => l.startsWith("## "))).toBe("## Limitations");
    expect(items(newcomers.slice(0, newcomers.indexOf("## Overview")))).toEqual([
      "Lantern keeps its history in memory only, so a restart forgets past outages.",
      "It does not check TLS certificate expiry yet.",
    ]);
    expect(plain).not.toContain("## Overview");
  });
});

describe("default model: a brief of two sources, and its review", () => {
  const agents = agentsOf(researchBrief);
  const sources = () =>
    new Map([
      ["source-survey.md", heldOut("source-survey.md")],
      ["source-pilot.md", heldOut("source-pilot.md")],
    ]) as FakeWorkspace;

  it("plans the reads, the brief and a review that sees the sources", async () => {
    const steps = await planFor("Write a brief of source-survey.md and source-pilot.md into brief.md", agents);
    expect(steps.map((s) => [s.task, s.agent_id, s.depends_on])).toEqual([
      ["Read source-survey.md", "researcher", []],
      ["Read source-pilot.md", "researcher", []],
      ["Write a summary of source-survey.md and source-pilot.md to brief.md", "writer", [0, 1]],
      ["Review brief.md", "reviewer", [0, 1, 2]],
    ]);
  });

  it("uses every source, cites one for each point, and the Reviewer approves it", async () => {
    const ws = sources();
    const steps = await planFor("Write a brief of source-survey.md and source-pilot.md into brief.md", agents);
    const done = await runPlan(steps, agents, ws);
    const brief = ws.get("brief.md") ?? "";
    const points = items(brief);
    expect(points.length).toBeGreaterThanOrEqual(6);
    const text = { "source-survey.md": cleanInline(heldOut("source-survey.md")), "source-pilot.md": cleanInline(heldOut("source-pilot.md")) };
    for (const point of points) {
      const m = /^(.*) \(source: (source-survey\.md|source-pilot\.md)\)$/.exec(point);
      expect(m, point).not.toBeNull();
      // Each point is said, word for word, by the source it names.
      expect(text[m?.[2] as keyof typeof text]).toContain(m?.[1]);
    }
    for (const file of Object.keys(text)) expect(points.filter((p) => p.endsWith(`(source: ${file})`)).length).toBeGreaterThanOrEqual(3);
    expect(brief).toContain("- Desk occupancy rose from 31% to 57% on team days. (source: source-pilot.md)");
    expect(brief).toContain("- 64% of respondents work from home at least three days a week. (source: source-survey.md)");
    expect(done[2]?.result).toMatch(/^Wrote \d+ bytes to brief\.md\. The summary has \d+ points from 2 sources \(source-survey\.md, source-pilot\.md\)\.$/);
    const review = done[3]?.result ?? "";
    expect(review.split("\n")[0]).toBe("Verdict: approved");
    expect(review).not.toContain("- Unsupported:");
    expect(review).toMatch(/^Review of brief\.md: \d+ points of brief\.md checked against source-survey\.md, source-pilot\.md\. Approved/m);
    expect(done[3]?.calls.map((c) => [c.toolName, c.input.path])).toEqual([["read_file", "brief.md"]]);
  });

  it("flags an invented point and an unused source; the writer's rerun with that feedback fixes both", async () => {
    const ws = sources();
    // A draft edited by hand: one invented point, and nothing from the pilot.
    ws.set(
      "brief.md",
      [
        "# Brief",
        "",
        "- 64% of respondents work from home at least three days a week. (source: source-survey.md)",
        "- The company will hire five new engineers in May. (source: source-survey.md)",
        "- Commute time is the top reason for staying remote, ahead of focus time.",
        "",
      ].join("\n"),
    );
    const survey = { task: "Read source-survey.md", result: `Read 547 characters from source-survey.md:\n${heldOut("source-survey.md")}` };
    const pilot = { task: "Read source-pilot.md", result: `Read 522 characters from source-pilot.md:\n${heldOut("source-pilot.md")}` };
    const reviewer = agents.find((a) => a.id === "reviewer") as AgentInfo;
    const review = await runStep(
      reviewer,
      "Review brief.md",
      [survey, pilot, { task: "Write a summary of source-survey.md and source-pilot.md to brief.md", result: "Wrote 250 bytes to brief.md." }],
      ws,
    );
    expect(review.text.split("\n").slice(0, 3)).toEqual(["Verdict: changes needed", "- Unsupported: The company will hire five new engineers in May.", "- Unused source: source-pilot.md"]);
    expect(review.text).toContain("2 of 3 points are found in the sources; source-pilot.md is never used.");

    // The Supervisor re-runs the writer once with the review as an extra context entry.
    const writer = agents.find((a) => a.id === "writer") as AgentInfo;
    const rerun = await runStep(writer, "Write a summary of source-survey.md and source-pilot.md to brief.md", [survey, pilot, { task: "Reviewer feedback", result: review.text }], ws);
    const rewritten = ws.get("brief.md") ?? "";
    expect(rewritten).not.toContain("hire five new engineers");
    expect(rewritten).toContain("(source: source-pilot.md)");
    expect(rerun.text).toContain("Revised after the review: it now uses source-pilot.md; 1 unsupported point was left out.");
    const again = await runStep(reviewer, "Review brief.md", [survey, pilot], ws);
    expect(again.text.split("\n")[0]).toBe("Verdict: approved");
  });

  it("a source that could not be read is named in the brief and flagged by the Reviewer", async () => {
    const ws: FakeWorkspace = new Map([["source-survey.md", heldOut("source-survey.md")]]);
    const steps = await planFor("Write a brief of source-survey.md and source-pilot.md into brief.md", agents);
    const done = await runPlan(steps, agents, ws);
    expect(done[1]?.result).toBe('read_file on source-pilot.md failed: No such file or directory: "source-pilot.md".');
    const brief = ws.get("brief.md") ?? "";
    expect(brief).toContain('_Not included: source-pilot.md could not be read (read_file on source-pilot.md failed: No such file or directory: "source-pilot.md")._');
    expect(brief).not.toMatch(/^- .*No such file/m);
    expect(done[3]?.result.split("\n").slice(0, 2)).toEqual([
      "Verdict: changes needed",
      '- Unused source: source-pilot.md (could not be read: read_file on source-pilot.md failed: No such file or directory: "source-pilot.md".)',
    ]);
  });

  it("a reviewer with no sources in its context reads the files the draft cites", async () => {
    const ws = sources();
    ws.set("brief.md", "# Brief\n\n- Desk occupancy rose from 31% to 57% on team days. (source: source-pilot.md)\n");
    const reviewer = agents.find((a) => a.id === "reviewer") as AgentInfo;
    const review = await runStep(reviewer, "Review brief.md", [], ws);
    expect(review.calls.map((c) => c.input.path)).toEqual(["brief.md", "source-pilot.md"]);
    expect(review.text.split("\n")[0]).toBe("Verdict: approved");
  });
});

describe("default model: to-dos, and failures reported as failures", () => {
  it("plans the TODO task with the built-in tools and writes a checklist of every TODO with where it is", async () => {
    const task = "Find every TODO in the workspace and make a checklist in todo.md";
    const steps = await planFor(task, assistant);
    expect(steps.map((s) => [s.task, s.depends_on])).toEqual([
      ["List the files in the workspace", []],
      ["Collect the TODO lines of the listed files, except todo.md", [0]],
      ["Write a checklist of the TODO lines to todo.md", [1]],
    ]);
    expect(steps.some((s) => /^Read todo\.md/.test(s.task))).toBe(false);
    const ws: FakeWorkspace = new Map([
      ["launch-plan.md", heldOut("launch-plan.md")],
      ["scripts/deploy.sh", heldOut("deploy.sh")],
      ["ops-sync-notes.md", heldOut("ops-sync-notes.md")],
      ["logo.png", "\u0089PNG"],
    ]);
    const done = await runPlan(steps, assistant, ws);
    const reads = done[1]?.calls.map((c) => [c.toolName, c.input.path]);
    expect(reads).toEqual([
      ["list_files", "scripts"],
      ["read_file", "launch-plan.md"],
      ["read_file", "ops-sync-notes.md"],
      ["read_file", "scripts/deploy.sh"],
    ]);
    expect(done[1]?.result.split("\n")[0]).toBe("Found 11 TODO lines in 3 files read (launch-plan.md, ops-sync-notes.md and scripts/deploy.sh):");
    const checklist = ws.get("todo.md") ?? "";
    expect(checklist.split("\n").slice(0, 3)).toEqual(["# TODO checklist", "", "_Collected from 3 files: launch-plan.md, ops-sync-notes.md and scripts/deploy.sh._"]);
    for (const line of [
      "- [ ] Rewrite the billing FAQ for the new plans (launch-plan.md, line 8)",
      "- [ ] Add screenshots to the onboarding guide (launch-plan.md, line 9)",
      "- [ ] ask legal whether the refund policy page needs a review. (launch-plan.md, line 11)",
      "- [ ] Search uses the same index as the app. FIXME: the index misses articles with emoji in the title. (launch-plan.md, line 15)",
      "- [ ] Jonas Berg — apply the 30-day retention policy, due 19 May (ops-sync-notes.md, line 25)",
      "- [ ] Jonas Berg — renew or replace the log store contract, due 15 June (ops-sync-notes.md, line 29)",
      "- [ ] fail when the sitemap is missing (scripts/deploy.sh, line 6)",
      "- [ ] FIXME hard-coded path (scripts/deploy.sh, line 7)",
    ]) {
      expect(checklist).toContain(line);
    }
    // A done item is not a to-do.
    expect(checklist).not.toContain("Migrate the 40 most read articles");
    expect(done[2]?.result).toMatch(/^Wrote \d+ bytes to todo\.md\. The checklist has 11 items\.$/);
  });

  it("a failed read is stated as a failure, and the writer does not write its text", async () => {
    const ws: FakeWorkspace = new Map();
    const steps = await planFor("Summarize missing.md into summary.md", assistant);
    const done = await runPlan(steps, assistant, ws);
    expect(done[0]?.result).toBe('read_file on missing.md failed: No such file or directory: "missing.md".');
    expect(done[1]?.calls).toEqual([]);
    expect(done[1]?.result).toBe('I can\'t write summary.md: none of the earlier steps returned text to summarize (read_file on missing.md failed: No such file or directory: "missing.md".).');
    expect(ws.has("summary.md")).toBe(false);
  });

  it("an approver who declines the write and asks for the text in the chat gets the summary there", async () => {
    const messages: ModelMessage[] = [
      {
        role: "user",
        content: executorPrompt({
          stepIndex: 1,
          stepCount: 2,
          task: "Write a summary of ops-sync-notes.md to summary.md",
          expectedOutput: "Done.",
          context: [{ task: "Read ops-sync-notes.md", result: `Read 1159 characters from ops-sync-notes.md:\n${heldOut("ops-sync-notes.md")}` }],
        }),
      },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "write_file", input: { path: "summary.md", content: "# Summary" } }] },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "write_file",
            output: { type: "execution-denied", reason: "The approver did not run this call and answered: Do not write a file; give me the summary in the chat." },
          },
        ],
      },
    ];
    const { text, toolCalls } = await generateText({ model: createOfflineModel(), system: executorSystem(assistant[0] as AgentInfo), messages, tools: fileTools });
    expect(toolCalls).toEqual([]);
    expect(text.split("\n")[0]).toBe("write_file on summary.md was not run: The approver did not run this call and answered: Do not write a file; give me the summary in the chat.");
    expect(text).toContain("As asked, here it is instead:\n\n# Summary of ops-sync-notes.md");
    expect(text).toContain("- [ ] Mei Chen — write the runbook for the billing export job, due 2026-05-26");
  });

  it("a blocked delete is reported as not run", async () => {
    const done = await runPlan(await planFor("Delete launch-plan.md", assistant), assistant, new Map([["launch-plan.md", "x"]]));
    expect(done[0]?.result).toBe("delete_file on launch-plan.md was not run: BLOCKED by policy (File safety #4: delete_file BLOCKED): delete_file may not run in this flow.");
    expect(done[0]?.result).not.toContain("Deleted");
  });

  it("asked to collect to-dos without a listing or a read, it says so instead of guessing", async () => {
    const agent = agentWith("a", "Assistant", "Work on files.", ["read_file"]);
    const { text, calls } = await runStep(
      agent,
      "Collect the TODO lines of the listed files",
      [{ task: "List the files in the workspace", result: "list_files on . failed: permission denied" }],
      new Map(),
    );
    expect(calls).toEqual([]);
    expect(text).toBe("I can't collect the TODO lines: no earlier step listed or read any file (list_files on . failed: permission denied).");
  });
});
