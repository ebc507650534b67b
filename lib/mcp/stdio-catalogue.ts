import path from "node:path";
import { z } from "zod";

/**
 * The operator's catalogue of stdio MCP commands, the value of `MCP_STDIO_COMMANDS`
 * (docs/security.md "Stdio MCP servers", "Operator settings"): a JSON object, command name
 * -> entry. A workspace owner picks a command by name; the program runs with exactly the
 * entry's argv, where each `{placeholder}` is replaced by one of the values the operator
 * listed for it, chosen by the owner. The owner sets no argument and no environment
 * variable but the secrets named in `env`.
 *
 * Why argv is exact and never a shell: once a tenant adds one argument, an allowlisted
 * program becomes any program (Flowise CVE-2026-40933: `npx` given `-c <shell>`), and a
 * command line read by a shell is code (Flowise CVE-2025-59528). So a tenant's value must
 * equal one of the operator's strings, argv[0] is an absolute path (no PATH search), and
 * entries whose program is a shell or a launcher of other commands are refused.
 *
 * ```json
 * { "notes": { "argv": ["/usr/bin/node", "/srv/mcp/notes.js", "--root", "{root}"],
 *              "values": { "root": ["/srv/a", "/srv/b"] }, "env": ["NOTES_TOKEN"],
 *              "timeoutMs": 30000, "description": "Team notes" } }
 * ```
 */

/** A placeholder in an argv element: `{name}`, name lower-case letters, digits and `_`. */
export const PLACEHOLDER = /\{([a-z][a-z0-9_]{0,31})\}/g;

/** Programs refused as argv[0] (basename): shells and launchers that run another command line. */
const LAUNCHERS = new Set(
  "sh bash dash zsh ksh mksh pdksh ash csh tcsh fish rbash busybox toybox env sudo doas su pkexec runuser xargs nohup setsid nice ionice timeout stdbuf chroot script watch flock time strace ltrace gdb".split(
    " ",
  ),
);

/**
 * Environment names an owner may never set, even when declared: each makes a loader,
 * interpreter or tool run code or read files the tenant names (LD_PRELOAD, NODE_OPTIONS
 * `--import=data:...`, PYTHONSTARTUP, BASH_ENV, GIT_SSH_COMMAND, ...), or moves the fixed
 * PATH/HOME/TMPDIR the process gets.
 */
const REFUSED_ENV =
  /^(LD_|DYLD_|NODE_|NPM_CONFIG_|PYTHON|PERL|RUBY|JAVA_|_JAVA_|JDK_|GIT_|BASH_|GCONV_|LOCPATH$|NLSPATH$|HOSTALIASES$|RESOLV_|GLIBC_|MALLOC_|PATH$|HOME$|TMPDIR$|ENV$|SHELLOPTS$|BASHOPTS$|PS4$|PROMPT_COMMAND$|IFS$|CLASSPATH$|LANG$|LC_)/i;

const envName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, "an environment variable name: letters, digits and _, not starting with a digit")
  .refine((n) => !REFUSED_ENV.test(n), "this variable can make the program load code or files a tenant names; it cannot be set by a tenant");

const argvElement = z
  .string()
  .min(1, "an empty argument")
  .max(4096, "at most 4,096 characters")
  .refine((a) => !a.includes("\0"), "no NUL characters");

const program = argvElement
  .refine((p) => path.isAbsolute(p) && path.normalize(p) === p && !p.endsWith("/"), "an absolute, normalised path to the program (no PATH search), e.g. /usr/bin/node")
  .refine((p) => !p.includes("{"), "the program cannot be a placeholder")
  .refine((p) => !LAUNCHERS.has(path.basename(p).replace(/[0-9.]+$/, "")), "a shell or command launcher is refused: name the MCP server's program itself (argv runs exactly, never through a shell)");

/** One catalogue entry (see the module comment). */
export const StdioCommandEntry = z
  .object({
    argv: z.array(argvElement).min(1, "at least the program").max(64, "at most 64 elements"),
    values: z.record(z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, "a placeholder name"), z.array(argvElement).min(1).max(100)).default({}),
    env: z.array(envName).max(30).default([]),
    /** Longest the program may take to answer one request before its process group is killed, ms. */
    timeoutMs: z.number().int().min(1000).max(600_000).default(30_000),
    /** Most bytes of one message (one stdout line) before the process group is killed. */
    maxMessageBytes: z
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024)
      .default(4 * 1024 * 1024),
    /** Most stdout bytes over the process's life before its process group is killed. */
    maxOutputBytes: z
      .number()
      .int()
      .min(1024)
      .max(1024 * 1024 * 1024)
      .default(64 * 1024 * 1024),
    description: z.string().max(500).default(""),
  })
  .strict()
  .superRefine((e, ctx) => {
    const first = e.argv[0];
    if (first !== undefined) {
      const checked = program.safeParse(first);
      if (!checked.success) ctx.addIssue({ code: "custom", path: ["argv", 0], message: checked.error.issues[0]?.message ?? "invalid program" });
    }
    const used = new Set(e.argv.slice(1).flatMap((a) => [...a.matchAll(PLACEHOLDER)].map((m) => m[1] ?? "")));
    for (const name of used) if (!(name in e.values)) ctx.addIssue({ code: "custom", path: ["values", name], message: `argv uses {${name}}; list its allowed values` });
    for (const [name, list] of Object.entries(e.values)) {
      if (!used.has(name)) ctx.addIssue({ code: "custom", path: ["values", name], message: `no argv element uses {${name}}` });
      if (new Set(list).size !== list.length) ctx.addIssue({ code: "custom", path: ["values", name], message: "the values repeat" });
    }
  });
export type StdioCommandEntry = z.infer<typeof StdioCommandEntry>;

/** The whole catalogue: command name (lower-case letters, digits, `_`, `-`) -> entry. */
export const StdioCatalogue = z
  .record(z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/, "a command name: lower-case letters, digits, _ and -"), StdioCommandEntry)
  .refine((c) => Object.keys(c).length <= 100, "at most 100 commands");
export type StdioCatalogue = z.infer<typeof StdioCatalogue>;

/**
 * The `MCP_STDIO_COMMANDS` setting as lib/env.ts reads it: JSON text parsed into a
 * {@link StdioCatalogue}. Each issue's message starts with where it is, e.g.
 * `MCP_STDIO_COMMANDS.notes.argv.0: an absolute, normalised path ...`.
 */
export const StdioCatalogueSetting = z.string().transform((text, ctx): StdioCatalogue => {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    ctx.addIssue({ code: "custom", message: 'MCP_STDIO_COMMANDS: not JSON; expected {"name": {"argv": ["/absolute/program", "..."]}}' });
    return z.NEVER;
  }
  const parsed = StdioCatalogue.safeParse(raw);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    ctx.addIssue({ code: "custom", path: issue.path, message: `MCP_STDIO_COMMANDS${issue.path.map((p) => `.${String(p)}`).join("")}: ${issue.message}` });
  }
  return z.NEVER;
});
