import { formatUsd, PRICES_AS_OF } from "@/lib/models/pricing";
import type { DashboardTotals as Totals } from "@/lib/db/dashboard-types";
import styles from "./dashboard.module.css";
import { formatCount } from "./format";

/**
 * The "Totals" line of the filtered set: runs, tokens and estimated cost, over
 * every page. When some runs have no known price it says so and gives only the priced part.
 */
export function DashboardTotals({ totals }: { totals: Totals }) {
  const { threads, runs, tokens, costUsd, pricedUsd, unpricedRuns } = totals;
  const invocations = runs !== threads ? ` (${formatCount(runs)} starts and resumes)` : "";
  const cost =
    costUsd !== null ? `${formatUsd(costUsd)} estimated` : `${formatUsd(pricedUsd)} estimated for priced runs; ${formatCount(unpricedRuns)} ${unpricedRuns === 1 ? "run" : "runs"} at unknown price`;
  return (
    <p className={`small ${styles.totals}`} data-testid="dashboard-totals" title={`Costs at list prices of ${PRICES_AS_OF}`}>
      <strong>Totals</strong>:{" "}
      <span data-testid="dashboard-totals-runs">
        {formatCount(threads)} {threads === 1 ? "run" : "runs"}
      </span>
      {invocations} ·{" "}
      <span data-testid="dashboard-totals-tokens">
        {formatCount(tokens.input)} in / {formatCount(tokens.output)} out tokens
      </span>{" "}
      · <span data-testid="dashboard-totals-cost">{cost}</span>
    </p>
  );
}
