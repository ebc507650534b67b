import type { LanguageModelUsage, ModelMessage, ToolSet } from "ai";
import { streamText } from "ai";
import type { LanguageModel } from "ai";

/** What a streamed model call gave: its text, the tool calls it made, and the tokens it used. */
export interface StreamedCall {
  /** The whole text the model wrote (untrimmed). */
  text: string;
  /** The tool calls, as `generateText` reports them (invalid ones included, marked by the SDK). */
  toolCalls: { toolCallId: string; toolName: string; input: unknown }[];
  usage: LanguageModelUsage;
}

/** Options of {@link streamCall}: one model call, a prompt or messages, optional tools. */
export interface StreamCallOptions {
  model: LanguageModel;
  system: string;
  prompt?: string;
  messages?: ModelMessage[];
  tools?: ToolSet;
  /** The node's sampling temperature (0-2), when its flow sets one (docs/models.md "Per-node settings"). */
  temperature?: number;
  /** The node's maximum output length, tokens, when its flow sets one. */
  maxOutputTokens?: number;
  /** Called on every stream part the model sends: the per-call time limit starts again (lib/models/call-timeout.ts). */
  onPart?: () => void;
  /** Ends the model's stream (the run's cancel, a per-call timeout): the provider sees the abort. */
  abortSignal?: AbortSignal;
  /**
   * Gets the text as it is written, in pieces whose concatenation is always a prefix of the
   * trimmed final text, cut between words (a piece ends before a whitespace run: a word is
   * never split, so a word-shaped secret can be redacted piece by piece); the last word comes
   * once the model finished. All pieces together are the trimmed text.
   */
  onText?: (delta: string) => void;
}

/**
 * One model call through the AI SDK's `streamText` (docs/runs.md "Streaming"): the text
 * deltas go to `onText` as they come; tool calls, text and usage are those `generateText`
 * would answer.
 * @throws the model's error (after the SDK's retries), or the abort reason when
 *   `abortSignal` ended the call.
 */
export async function streamCall(o: StreamCallOptions): Promise<StreamedCall> {
  const res = streamText({
    model: o.model,
    system: o.system,
    ...(o.messages ? { messages: o.messages } : { prompt: o.prompt ?? "" }),
    ...(o.tools ? { tools: o.tools } : {}),
    ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
    ...(o.maxOutputTokens !== undefined ? { maxOutputTokens: o.maxOutputTokens } : {}),
    ...(o.abortSignal ? { abortSignal: o.abortSignal } : {}),
    // Errors arrive as stream parts (below); the SDK's default handler would print them.
    onError: () => undefined,
  });
  let text = "";
  let start = -1;
  let sent = 0;
  let failure: { error: unknown } | null = null;
  for await (const part of res.stream) {
    o.onPart?.();
    if (part.type === "text-delta") {
      text += part.text;
      if (start < 0) {
        const m = /\S/.exec(text);
        if (!m) continue;
        start = m.index;
      }
      // Up to the start of the last whitespace run: complete words only, never trailing space.
      const m = /\s+\S*$/.exec(text);
      const end = m && m.index >= start ? m.index : start;
      if (end > start + sent) {
        o.onText?.(text.slice(start + sent, end));
        sent = end - start;
      }
    } else if (part.type === "error") {
      failure ??= { error: part.error };
    } else if (part.type === "abort") {
      failure ??= { error: o.abortSignal?.reason ?? new Error("the model call was aborted") };
    }
  }
  if (failure) throw failure.error;
  if (o.abortSignal?.aborted) throw o.abortSignal.reason;
  // The last word: the text is finished.
  const rest = start < 0 ? "" : text.trimEnd().slice(start + sent);
  if (rest) o.onText?.(rest);
  const [toolCalls, usage, whole] = await Promise.all([res.toolCalls, res.usage, res.text]);
  return { text: whole || text, toolCalls: toolCalls.map((c) => ({ toolCallId: c.toolCallId, toolName: c.toolName, input: c.input })), usage };
}
