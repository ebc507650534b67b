import type { PolicyCoverage } from "./react-flow";

/**
 * When a tool lacks the policy rule a flow needs before it may run (validation
 * refuses "a tool with side effects not covered by a policy"). Validation, the tool node
 * and the inspector all ask this one function, so what the canvas shows is what validation
 * enforces. The engine's own default (AUTH_REQUIRED for side effects) still
 * guards a run, but an uncovered tool never gets that far.
 */

/**
 * True when `coverage` (from `policyCoverage`) names no rule for a tool with side effects:
 * no unconditional rule and no conditional one covers it, so the flow cannot run until a
 * Policy rule names the tool (or a glob such as `*_file` or `*` that matches it).
 */
export function needsPolicyRule(coverage: PolicyCoverage, sideEffect: boolean): boolean {
  return sideEffect && coverage.policyId === null && coverage.conditions.length === 0;
}

/**
 * What to do about an uncovered tool, one sentence, e.g. `"write_file" changes things and no
 * policy rule covers it: add a Policy rule for write_file (ALLOW, AUTH_REQUIRED or BLOCKED).`
 */
export function uncoveredMessage(tool: string): string {
  return `"${tool}" changes things and no policy rule covers it: add a Policy rule for ${tool} (ALLOW, AUTH_REQUIRED or BLOCKED).`;
}
