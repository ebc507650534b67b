import { generateText, type ModelMessage, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { createOfflineModel, isOfflineModel } from "./offline";
import { fileNames, taskFileNames } from "./offline-text";
import { chat, executorMessages, fileTools, planRequest, worker } from "./offline-fixtures";
import { conversationSystem, executorSystem, finalizerPrompt, finalizerSystem, PlanProposal } from "./prompts";

const NOTES = [
  "# Team notes",
  "",
  "The launch of Phylactery is planned for March 14, 2026. Marketing needs the final copy a week before.",
  "Everyone agreed that the demo should stay short.",
  "",
  "- Alice owns the approval inbox and ships it by Friday.",
  "- Bob fixes 3 bugs in the flow editor.",
  "- misc",
  "",
  "## Risks",
  "",
  "Budget is tight: 12000 EUR remain for Q2. We may cut the mobile app.",
].join("\n");

async function plan(task: string) {
  const result = await generateText(planRequest(task));
  const call = result.toolCalls[0];
  expect(call?.toolName).toBe("create_plan");
  return PlanProposal.parse(call?.input);
}

describe("offline model: planner", () => {
  it("plans a summary as read then write", async () => {
    const result = await generateText(planRequest("Summarize notes.md into summary.md"));
    expect(result.finishReason).toBe("tool-calls");
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]?.toolCallId).toBe("call_plan_2");
    const { steps } = PlanProposal.parse(result.toolCalls[0]?.input);
    expect(steps).toHaveLength(2);
    expect(steps[0]).toMatchObject({ agent_id: "files", task: "Read notes.md", depends_on: [] });
    expect(steps[1]).toMatchObject({
      agent_id: "files",
      task: "Write a summary of notes.md to summary.md",
      depends_on: [0],
    });
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it("plans reads, lists, deletes, writes, copies and unknown tasks", async () => {
    expect((await plan("Read a.md and b.txt")).steps.map((s) => s.task)).toEqual(["Read a.md", "Read b.txt"]);
    expect((await plan("What files do I have?")).steps[0]?.task).toBe("List the files in the workspace");
    expect((await plan("Please delete old.log")).steps[0]).toMatchObject({ task: "Delete old.log", agent_id: "files" });
    expect((await plan('Create hello.txt with the text "Hello world"')).steps[0]?.task).toBe("Write hello.txt with content: Hello world");
    const copy = await plan("Copy a.md to b.md");
    expect(copy.steps.map((s) => [s.task, s.depends_on])).toEqual([
      ["Read a.md", []],
      ["Copy the contents of a.md to b.md", [0]],
    ]);
    expect((await plan("Tell me a joke")).steps).toEqual([{ agent_id: "chat", task: "Answer: Tell me a joke", expected_output: "A direct answer to the user.", depends_on: [] }]);
  });

  it("answers in text when create_plan is not offered", async () => {
    const { tools: _tools, toolChoice: _choice, ...request } = planRequest("Read a.md");
    const result = await generateText(request);
    expect(result.toolCalls).toHaveLength(0);
    expect(PlanProposal.parse(JSON.parse(result.text)).steps[0]?.task).toBe("Read a.md");
  });
});

describe("offline model: executor", () => {
  it("calls read_file, then reports the result in text", async () => {
    const model = createOfflineModel();
    const messages = executorMessages("Read notes.md");
    const first = await generateText({ model, system: executorSystem(worker), messages, tools: fileTools });
    expect(first.finishReason).toBe("tool-calls");
    const call = first.toolCalls[0];
    expect(call).toMatchObject({ toolName: "read_file", input: { path: "notes.md" }, toolCallId: "call_2" });

    const followUp: ModelMessage[] = [
      ...messages,
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "call_2", toolName: "read_file", input: { path: "notes.md" } }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_2",
            toolName: "read_file",
            output: { type: "text", value: NOTES },
          },
        ],
      },
    ];
    const second = await generateText({ model, system: executorSystem(worker), messages: followUp, tools: fileTools });
    expect(second.finishReason).toBe("stop");
    expect(second.toolCalls).toHaveLength(0);
    expect(second.text).toContain(`Read ${NOTES.length} characters from notes.md:`);
    expect(second.text).toContain("# Team notes");
  });

  it("reports write results and errors", async () => {
    const model = createOfflineModel();
    const content = "# Summary of notes.md\n\n- one\n- two\n";
    const replyAfter = (output: { type: "json"; value: { status: string; output: string } } | { type: "error-text"; value: string }) =>
      generateText({
        model,
        system: executorSystem(worker),
        tools: fileTools,
        messages: [
          ...executorMessages("Write a summary of notes.md to summary.md"),
          {
            role: "assistant",
            content: [{ type: "tool-call", toolCallId: "call_2", toolName: "write_file", input: { path: "summary.md", content } }],
          },
          { role: "tool", content: [{ type: "tool-result", toolCallId: "call_2", toolName: "write_file", output }] },
        ],
      });
    const ok = await replyAfter({ type: "json", value: { status: "success", output: "ok" } });
    expect(ok.text).toBe(`Wrote ${content.length} bytes to summary.md. The summary has 2 points.`);
    const failed = await replyAfter({ type: "error-text", value: "sandbox_violation: path escapes the workspace" });
    expect(failed.text).toBe("write_file on summary.md failed: sandbox_violation: path escapes the workspace");
  });

  it("writes a summary that keeps the source's headings, lists and risks", async () => {
    const context = [{ task: "Read notes.md", result: `Read ${NOTES.length} characters from notes.md:\n${NOTES}` }];
    const result = await generateText({
      model: createOfflineModel(),
      system: executorSystem(worker),
      messages: executorMessages("Write a summary of notes.md to summary.md", context),
      tools: fileTools,
    });
    const call = result.toolCalls[0];
    expect(call?.toolName).toBe("write_file");
    const input = call?.input as { path: string; content: string };
    expect(input.path).toBe("summary.md");
    expect(input.content).toBe(
      [
        "# Summary of notes.md",
        "",
        "_Team notes_",
        "",
        "- The launch of Phylactery is planned for March 14, 2026.",
        "- Everyone agreed that the demo should stay short.",
        "- Alice owns the approval inbox and ships it by Friday.",
        "- Bob fixes 3 bugs in the flow editor.",
        "- misc",
        "",
        "## Risks",
        "",
        "- Budget is tight: 12000 EUR remain for Q2.",
        "- We may cut the mobile app.",
        "",
      ].join("\n"),
    );
  });

  it("explains when the needed tool is not offered", async () => {
    const result = await generateText({
      model: createOfflineModel(),
      system: executorSystem(chat),
      messages: executorMessages("Delete old.log"),
      tools: { read_file: fileTools.read_file },
    });
    expect(result.toolCalls).toHaveLength(0);
    expect(result.text).toBe('I can\'t do "Delete old.log": it needs the delete_file tool, which is not available to Chat.');
  });

  it("answers in text when no tool is needed", async () => {
    const result = await generateText({
      model: createOfflineModel(),
      system: executorSystem(chat),
      messages: executorMessages("Summarize notes.md", [{ task: "Read notes.md", result: NOTES }]),
    });
    expect(result.text.startsWith("# Summary of notes.md\n\n_Team notes_\n\n- The launch of Phylactery")).toBe(true);
    expect(result.text).toContain("## Risks\n\n- Budget is tight: 12000 EUR remain for Q2.");
  });
});

describe("offline model: finalizer and conversation", () => {
  it("recaps the steps", async () => {
    const { text } = await generateText({
      model: createOfflineModel(),
      system: finalizerSystem(),
      prompt: finalizerPrompt({
        task: "Summarize notes.md into summary.md",
        steps: [
          { task: "Read notes.md", status: "done", result: "Read 10 characters from notes.md:\nHello." },
          {
            task: "Write a summary of notes.md to summary.md",
            status: "done",
            result: "Wrote 80 bytes to summary.md. The summary has 5 points.",
          },
        ],
      }),
    });
    expect(text).toBe("Summarized notes.md into summary.md (5 points).");
  });

  it("quotes a result only when the task asked to see it", async () => {
    const steps = [{ task: "Read notes.md", status: "done", result: "Read 6 characters from notes.md:\nHello." }];
    const read = await generateText({ model: createOfflineModel(), system: finalizerSystem(), prompt: finalizerPrompt({ task: "Read notes.md", steps }) });
    expect(read.text).toBe("Done: Read notes.md (Read 6 characters from notes.md).\n\nRead 6 characters from notes.md:\nHello.");
    const other = await generateText({ model: createOfflineModel(), system: finalizerSystem(), prompt: finalizerPrompt({ task: "Summarize notes.md into summary.md", steps }) });
    expect(other.text).toBe("Done: Read notes.md (Read 6 characters from notes.md).");
  });

  it("says a rejected tool was not run", async () => {
    const { text } = await generateText({
      model: createOfflineModel(),
      system: finalizerSystem(),
      prompt: finalizerPrompt({
        task: "Summarize notes.md into summary.md",
        steps: [
          { task: "Read notes.md", status: "done", result: "Read 6 characters from notes.md:\nHello." },
          { task: "Write a summary of notes.md to summary.md", status: "rejected", result: "" },
        ],
        note: "The user rejected write_file.",
      }),
    });
    expect(text).toContain("Done: Read notes.md (Read 6 characters from notes.md).");
    expect(text).toContain("Not done: The user rejected write_file. That tool was not run");
    expect(text).toContain('Step "Write a summary of notes.md to summary.md" ended as rejected.');
    // The file read on the way is not pasted into an answer that did not ask for it.
    expect(text).not.toContain("Hello.");
  });

  it("never passes a failure off as the answer", async () => {
    const { text } = await generateText({
      model: createOfflineModel(),
      system: finalizerSystem(),
      prompt: finalizerPrompt({
        task: "Find every TODO in the workspace and make a checklist in todo.md",
        steps: [{ task: "Read todo.md", status: "completed", result: 'read_file on todo.md failed: No such file or directory: "todo.md".' }],
      }),
    });
    expect(text).toBe('Step "Read todo.md" ended as failed: read_file on todo.md failed: No such file or directory: "todo.md".');
  });

  it("makes small talk", async () => {
    const { text } = await generateText({ model: createOfflineModel(), system: conversationSystem(), prompt: "hi there" });
    expect(text).toMatch(/^Hello! I'm Phylactery's offline model/);
    expect(text).toContain("Summarize notes.md into summary.md");
  });
});

describe("offline model: streaming, determinism, identity", () => {
  it("streams the same tool call as generateText", async () => {
    const streamed = streamText(planRequest("Summarize notes.md into summary.md"));
    const types: string[] = [];
    for await (const part of streamed.fullStream) types.push(part.type);
    const [generated, calls] = await Promise.all([generateText(planRequest("Summarize notes.md into summary.md")), streamed.toolCalls]);
    expect(calls.map((c) => [c.toolCallId, c.input])).toEqual(generated.toolCalls.map((c) => [c.toolCallId, c.input]));
    expect(types).toContain("tool-input-delta");
    expect(await streamed.finishReason).toBe("tool-calls");
  });

  it("streams text in several deltas", async () => {
    const streamed = streamText({ model: createOfflineModel(), system: conversationSystem(), prompt: "hello" });
    const deltas: string[] = [];
    for await (const delta of streamed.textStream) deltas.push(delta);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join("")).toBe(await streamed.text);
    expect((await streamed.usage).outputTokens).toBe(Math.ceil(deltas.join("").length / 4));
  });

  it("is deterministic", async () => {
    const run = async () => {
      const r = await generateText({
        model: createOfflineModel(),
        system: executorSystem(worker),
        messages: executorMessages("Write a summary of notes.md to summary.md", [{ task: "Read notes.md", result: NOTES }]),
        tools: fileTools,
      });
      return { calls: r.toolCalls.map((c) => [c.toolCallId, c.toolName, c.input]), usage: r.usage };
    };
    expect(await run()).toEqual(await run());
  });

  it("knows itself", () => {
    expect(isOfflineModel(createOfflineModel())).toBe(true);
    expect(isOfflineModel("openai/gpt-4.1")).toBe(false);
  });
});

describe("offline model: uploaded documents", () => {
  it("reads a PDF or a DOCX named in the task, then writes the summary", async () => {
    for (const file of ["contract.docx", "Q3-report.pdf"]) {
      const { steps } = await plan(`Summarize ${file} into summary.md`);
      expect(steps.map((s) => s.task)).toEqual([`Read ${file}`, `Write a summary of ${file} to summary.md`]);
    }
  });

  it("reads a file whose name has spaces, quoted or not, like any other", async () => {
    for (const [task, file] of [
      ["Summarize Q3 report.pdf into summary.md", "Q3 report.pdf"],
      ['Summarize "Q3 report.pdf" into summary.md', "Q3 report.pdf"],
      ["Summarize “board minutes march.docx” into summary.md", "board minutes march.docx"],
      ["Please summarize the Board Minutes 2026.docx into summary.md", "Board Minutes 2026.docx"],
    ]) {
      const { steps } = await plan(task as string);
      expect(steps.map((s) => s.task)).toEqual([`Read "${file}"`, `Write a summary of "${file}" to summary.md`]);
      // Each step names the whole file to the executor.
      expect(taskFileNames(steps[0]?.task ?? "")).toEqual([file]);
      expect(taskFileNames(steps[1]?.task ?? "")).toEqual([file, "summary.md"]);
    }
    // Free text and plain names are unchanged.
    expect(taskFileNames("Summarize notes.md and release-notes.md into summary.md")).toEqual(["notes.md", "release-notes.md", "summary.md"]);
    expect(fileNames("Then Bob said notes.md")).toEqual(["notes.md"]);
    expect(taskFileNames("Résume retro-notes.md dans synthese.md")).toEqual(["retro-notes.md", "synthese.md"]);
    expect(taskFileNames("Q3 report.pdf: summarize it")).toEqual(["Q3 report.pdf"]);
  });
});
