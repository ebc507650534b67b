/**
 * Drives a Phylactery flow with the official LangGraph SDK and nothing else
 * (docs/langgraph-api.md): lists the assistants (flows) the key may run, creates a thread,
 * streams a run to its approval, reads the HumanInterrupt from the thread's state, accepts it
 * by echoing the action_request it was shown, and prints the final state.
 *
 *   PHYLACTERY_API_KEY=phy_... npm run example:sdk
 *
 * Environment: PHYLACTERY_URL (default http://localhost:3000), PHYLACTERY_API_KEY (make one in
 * Settings → API keys), TASK (default "Summarize notes.md into summary.md"), DECISION (accept,
 * edit, response or ignore; default accept).
 */
import { Client } from "@langchain/langgraph-sdk";

type ActionRequest = { action: string; args: Record<string, unknown>; approval?: { id: string; token?: string; args_hash: string; expires_at: string | null } };
type HumanInterrupt = { action_request: ActionRequest; config: Record<string, boolean>; description: string };

const url = process.env.PHYLACTERY_URL ?? "http://localhost:3000";
const apiKey = process.env.PHYLACTERY_API_KEY;
const task = process.env.TASK ?? "Summarize notes.md into summary.md";
const decision = (process.env.DECISION ?? "accept") as "accept" | "edit" | "response" | "ignore";
if (!apiKey) {
  console.error("Set PHYLACTERY_API_KEY to a key from Settings → API keys.");
  process.exit(2);
}

const client = new Client({ apiUrl: `${url}/api/langgraph`, apiKey });
const log = (label: string, value: unknown) => console.log(`${label}:`, typeof value === "string" ? value : JSON.stringify(value, null, 2));

const assistants = await client.assistants.search({ limit: 10 });
log(
  "assistants",
  assistants.map((a) => ({ assistant_id: a.assistant_id, name: a.name, version: a.version })),
);
const assistant = assistants.find((a) => a.name === "Workspace assistant") ?? assistants[0];
if (!assistant) throw new Error("No assistant: make a flow in the editor first.");

const thread = await client.threads.create({ metadata: { source: "sdk-session" } });
log("thread", { thread_id: thread.thread_id, status: thread.status });

for await (const chunk of client.runs.stream(thread.thread_id, assistant.assistant_id, { input: { messages: [{ role: "user", content: task }] }, streamMode: ["updates", "custom"] })) {
  if (chunk.event === "custom") {
    const part = chunk.data as { type: string; data?: { status?: string; toolName?: string; title?: string } };
    console.log(`  custom ${part.type}${part.data?.toolName ? ` ${part.data.toolName}` : ""}${part.data?.status ? ` ${part.data.status}` : ""}`);
  } else if (chunk.event !== "metadata") {
    console.log(`  ${chunk.event} ${Object.keys(chunk.data as object).join(", ")}`);
  }
}

const state = await client.threads.getState(thread.thread_id);
const interrupt = state.tasks.flatMap((t) => t.interrupts)[0] as { id: string; value: HumanInterrupt[] } | undefined;
if (!interrupt) {
  log("final state (no approval was needed)", state.values);
  process.exit(0);
}
const request = interrupt.value[0]?.action_request as ActionRequest;
log("HumanInterrupt", { ...interrupt.value[0], action_request: { ...request, approval: { ...request.approval, token: request.approval?.token ? "<one-time token>" : undefined } } });

const response =
  decision === "accept"
    ? { type: "accept", args: request }
    : decision === "edit"
      ? { type: "edit", args: { ...request, args: { ...request.args, path: "edited.md" } } }
      : decision === "response"
        ? { type: "response", args: "Do not write files; answer in the chat." }
        : { type: "ignore", args: null };
const final = (await client.runs.wait(thread.thread_id, assistant.assistant_id, { command: { resume: [response] } })) as { messages?: { type: string; content: string }[] };
const runs = await client.runs.list(thread.thread_id);
log(`after ${decision}`, { run_status: runs[0]?.status, last_message: final.messages?.at(-1)?.content });
const after = await client.threads.get(thread.thread_id);
log("thread", { thread_id: after.thread_id, status: after.status });
