import { AppError } from "../errors";
import { baseUrlProblem } from "../net/base-url-check";
import type { OpenHost } from "../net/open-hosts";
import { operatorOpenHosts } from "../net/operator-open-hosts";

/**
 * Refuses, when it is saved, a webhook URL whose host is a metadata name or a private,
 * loopback or reserved IP literal the operator did not open (docs/security.md "Outbound
 * requests", as for provider base URLs). Names are not resolved here: the guarded client
 * judges what they resolve to on every send, and refuses without connecting.
 * @param opened hosts the operator opened (default: OUTBOUND_ALLOW_PRIVATE and friends).
 * @throws AppError unprocessable / "webhook_url_not_allowed", with an issue on `url`.
 */
export function checkWebhookUrl(url: string, opened: readonly OpenHost[] = operatorOpenHosts()): void {
  const problem = baseUrlProblem(url, opened);
  if (problem) throw new AppError("unprocessable", "webhook_url_not_allowed", `url: ${problem}`, { issues: [{ path: "url", message: problem }] });
}
