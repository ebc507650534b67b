import { z } from "zod";
import { VersionNumber } from "@/app/api/flows/[flowId]/versions/[version]/schema";

/**
 * Query of the compare page: `from` and `to` version numbers; either may be left out (the
 * page then compares the previous version with the latest). A repeated key keeps the last.
 */
export const Query = z.object({ from: VersionNumber.optional(), to: VersionNumber.optional() });

/** The page's search params as plain strings (the last value of a repeated key wins). */
export function queryOf(searchParams: Record<string, string | string[] | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(searchParams).map(([k, v]) => [k, Array.isArray(v) ? v[v.length - 1] : v]));
}
