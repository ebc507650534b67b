/**
 * The peer graph of `npm run bench:load -- --peer` (bench/load.ts): the same super-steps as
 * the load flow's run, on the official LangGraph server. `plan` reads the task and lists one
 * step per file it names, `step` runs once per file (a super-step each: it reads the file from
 * the thread's folder), `approve` interrupts for the write (the one interrupt), `write` writes
 * summary.md once resumed, `finish` writes the final answer. No model: the peer is measured on
 * its run machinery, as ours is with the offline model.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Annotation, END, interrupt, START, StateGraph } from "@langchain/langgraph";

const State = Annotation.Root({
  task: Annotation<string>(),
  dir: Annotation<string>(),
  files: Annotation<string[]>({ reducer: (_, b) => b, default: () => [] }),
  next: Annotation<number>({ reducer: (_, b) => b, default: () => 0 }),
  notes: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
  answer: Annotation<string>({ reducer: (_, b) => b, default: () => "" }),
});

export const graph = new StateGraph(State)
  .addNode("plan", (s) => ({ files: [...s.task.matchAll(/\b[\w-]+\.md\b/g)].map((m) => m[0]).filter((f) => f !== "summary.md"), next: 0 }))
  .addNode("step", async (s) => {
    const file = s.files[s.next] ?? "";
    const text = await readFile(path.join(s.dir, file), "utf8").catch(() => "");
    return { notes: [`${file}: ${text.split("\n").find((l) => l.startsWith("Point")) ?? ""}`], next: s.next + 1 };
  })
  .addNode("approve", (s) => {
    const decision = interrupt({ action: "write_file", args: { path: "summary.md", chars: s.notes.join("\n").length } }) as { type?: string };
    return { answer: decision?.type === "accept" ? "approved" : "declined" };
  })
  .addNode("write", async (s) => {
    if (s.answer === "approved") {
      await mkdir(s.dir, { recursive: true });
      await writeFile(path.join(s.dir, "summary.md"), s.notes.join("\n"));
    }
    return {};
  })
  .addNode("finish", (s) => ({ answer: `Summarized ${s.notes.length} files into summary.md (${s.answer}).` }))
  .addEdge(START, "plan")
  .addEdge("plan", "step")
  .addConditionalEdges("step", (s) => (s.next < s.files.length ? "step" : "approve"), ["step", "approve"])
  .addEdge("approve", "write")
  .addEdge("write", "finish")
  .addEdge("finish", END)
  .compile();
