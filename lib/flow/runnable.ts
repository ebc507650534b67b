import { AppError } from "../errors";
import { providerOf, unknownProviderMessage } from "../models/provider-ref";
import type { FlowDocument } from "./schema";
import { notRunnableReason, type ProviderCatalogView, type ToolCatalogView, validateFlow } from "./validate";

/**
 * Refuses to run a flow version the editor would call invalid ("Invalid flows
 * cannot be run"), with the same checks as the editor's live validation.
 * @param version the version number, for the message.
 * @param providers the model providers configured for the runs (docs/models.md "Validation");
 *   absent: models are not checked.
 * @throws AppError unprocessable ("flow_not_runnable") whose message says the first problem
 *   and how many there are; `details.problems` holds them all.
 */
export function assertRunnable(doc: FlowDocument, tools: ToolCatalogView, version: number, providers?: ProviderCatalogView): void {
  const problems = validateFlow(doc, tools, providers);
  // The flow's default model (Flow settings) is checked like a node's (docs/models.md "Validation").
  const provider = providerOf(doc.settings.model);
  if (providers && provider && !providers.configured(provider)) {
    problems.unshift({ code: "unknown_provider", severity: "error", message: unknownProviderMessage("The flow's default model", doc.settings.model, provider) });
  }
  const reason = notRunnableReason(problems);
  if (reason === null) return;
  throw new AppError("unprocessable", "flow_not_runnable", `Version ${version} of this flow cannot run: ${reason} Fix it in the editor and save a new version.`, {
    problems: problems.filter((p) => p.severity === "error"),
  });
}
