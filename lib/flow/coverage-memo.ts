import { needsPolicyRule, uncoveredMessage } from "./policy-gap";
import { describeCoverage, type PolicyCoverage, type PolicyNodeType, policyCoverage } from "./react-flow";

/**
 * Policy coverage of tool nodes, computed once per (policies, tool) for the whole canvas.
 * Every tool node of a 1,000-node flow asks on each render (a drag re-renders them all):
 * the answer is cached while the policy nodes keep the same ids, order and `data` objects,
 * so moving nodes never re-evaluates a rule.
 */

/** What a tool node shows: the coverage and its words (see `describeCoverage`). */
export interface ToolCoverageView {
  coverage: PolicyCoverage;
  /**
   * True when the tool has side effects and no rule covers it (`needsPolicyRule`): the flow
   * cannot run, so no decision is shown; `title` then says what to add.
   */
  needsRule: boolean;
  line: string | null;
  title: string;
}

let lastPolicies: readonly PolicyNodeType[] = [];
let cache = new Map<string, ToolCoverageView>();

/**
 * The coverage of `tool` by `policies` (policy nodes in document order) and its
 * words. The same object for the same question while the policies' data objects are the
 * same (references, as React Flow keeps them while nodes only move); a new one after any
 * policy edit. `sideEffect` is the catalog's flag for the tool.
 */
export function toolCoverage(policies: readonly PolicyNodeType[], tool: string, sideEffect: boolean): ToolCoverageView {
  if (!samePolicies(policies, lastPolicies)) {
    cache = new Map();
  }
  lastPolicies = policies;
  const key = `${sideEffect ? 1 : 0}${tool}`;
  let view = cache.get(key);
  if (!view) {
    const coverage = policyCoverage({ nodes: policies }, tool, sideEffect);
    const needsRule = needsPolicyRule(coverage, sideEffect);
    view = needsRule ? { coverage, needsRule, line: null, title: uncoveredMessage(tool) } : { coverage, needsRule, ...describeCoverage(coverage, sideEffect) };
    cache.set(key, view);
  }
  return view;
}

function samePolicies(a: readonly PolicyNodeType[], b: readonly PolicyNodeType[]): boolean {
  if (a === b) return true;
  return a.length === b.length && a.every((p, i) => p.id === b[i]?.id && p.data === b[i]?.data);
}
