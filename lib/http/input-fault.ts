/** A field of request input that cannot be accepted: its dotted path and why. */
export interface InputFault {
  /** Dotted path as zod writes it (`input.args.0.name`); "" for the value itself. */
  path: string;
  message: string;
}

/** The message for a string holding a lone UTF-16 surrogate. */
export const ILL_FORMED_MESSAGE = "holds a lone UTF-16 surrogate (U+D800-U+DFFF), which is not text; send well-formed Unicode";

/** The message for an object key that would replace an object's prototype. */
export const PROTO_KEY_MESSAGE = 'the key "__proto__" is not accepted; rename it';

const join = (path: string, key: string | number) => (path === "" ? String(key) : `${path}.${key}`);

/**
 * The first field of parsed request input (JSON body, route params or query) that no
 * handler may receive (docs/security.md "Input limits"):
 * - a string or object key with a lone UTF-16 surrogate: Prisma's query engine cannot
 *   encode it and would fail with a 500, and it is not text anyone could have typed;
 * - an object key `__proto__`, which turns into a prototype when copied by assignment.
 *
 * The walk is iterative (an explicit stack), so nesting depth cannot overflow the call
 * stack; time is linear in the size of the value.
 * @param value a JSON value (the output of `JSON.parse`, or a record of strings).
 * @returns a fault (an object's keys are checked before its values), or null when every
 *   string and key is acceptable.
 */
export function findInputFault(value: unknown): InputFault | null {
  const stack: { value: unknown; path: string }[] = [{ value, path: "" }];
  while (stack.length > 0) {
    const top = stack.pop();
    if (!top) break;
    const v = top.value;
    if (typeof v === "string") {
      if (!v.isWellFormed()) return { path: top.path, message: ILL_FORMED_MESSAGE };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: join(top.path, i) });
    } else if (v !== null && typeof v === "object") {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] ?? "";
        if (!key.isWellFormed()) return { path: top.path, message: `a key ${ILL_FORMED_MESSAGE}` };
        if (key === "__proto__") return { path: join(top.path, key), message: PROTO_KEY_MESSAGE };
        stack.push({ value: (v as Record<string, unknown>)[key], path: join(top.path, key) });
      }
    }
  }
  return null;
}
