/**
 * Intent classification (conversation vs task), deterministic so that it runs
 * before any model call. A message is a task when it names a file, or starts with or
 * contains an action verb, or asks a question about something other than the assistant
 * ("When is the next planning meeting?", at least four words, no "you"): the workspace's
 * files may answer it. Greetings and short questions are conversation.
 */
const ACTION =
  /\b(summari[sz]e|condense|write|read|list|create|delete|remove|copy|move|rename|draft|review|analy[sz]e|translate|find|search|make|generate|update|edit|plan|research|compare|extract|collect|compute|calculate|save|append|fix|run|execute|evaluate|fetch|download|get|remember|recall|use)\b/i;
const FILE = /[\w.-]+\.(md|txt|json|csv|log|ya?ml|html?)\b/i;
const QUESTION = /^(?:when|where|who|whom|whose|what|which|how (?:many|much|long|often)|quand|où|qui|quel(?:le)?s?|combien|cuándo|dónde|quién|qué|cuál|cuántos?|cuántas?)\s/i;
const ABOUT_ASSISTANT = /\b(?:you|your|yourself|vous|tu|toi|usted|tú)\b/i;

/** Classifies a user message. */
export function classifyIntent(text: string): "conversation" | "task" {
  const t = text.trim();
  if (!t) return "conversation";
  if (FILE.test(t) || ACTION.test(t)) return "task";
  if (QUESTION.test(t) && !ABOUT_ASSISTANT.test(t) && t.split(/\s+/).length >= 4) return "task";
  return "conversation";
}
