import { describe, expect, it } from "vitest";
import { classifyIntent } from "./intent";

/** classifyIntent (docs/architecture.md#the-graph): deterministic task vs conversation, before any model call. */

describe("classifyIntent", () => {
  it.each([
    // Tasks: an action verb anywhere, any case, or a file name.
    ["Summarize notes.md into summary.md", "task"],
    ["summarise the meeting", "task"],
    ["Please LIST the files", "task"],
    ["Can you delete old.txt?", "task"],
    ["write a haiku", "task"],
    ["Translate this to French", "task"],
    ["analyze the logs", "task"],
    ["what is in release-notes.md?", "task"],
    ["data.csv", "task"],
    ["config.YAML", "task"],
    ["check report.json", "task"],
    ["index.htm", "task"],
    // A question about something else than the assistant: the files may answer it.
    ["When is the next planning meeting?", "task"],
    ["Quand est la prochaine réunion ?", "task"],
    ["What can you do for me?", "conversation"],
    // Conversation: greetings, thanks, questions without action or file.
    ["hello there", "conversation"],
    ["thanks!", "conversation"],
    ["How are you?", "conversation"],
    ["who are you", "conversation"],
    ["", "conversation"],
    ["   \n\t ", "conversation"],
    // Verbs only count as whole words; other extensions are not files.
    ["I am reading along", "conversation"],
    ["nice makeover", "conversation"],
    ["the version is 1.2", "conversation"],
    ["app.exe", "conversation"],
  ] as const)("%j is a %s", (text, intent) => {
    expect(classifyIntent(text)).toBe(intent);
  });
});
