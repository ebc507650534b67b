/** Job status of a claimed run someone asked to cancel: its worker ends it at its next heartbeat (docs/durability.md#cancel). */
export const CANCEL_REQUESTED = "cancel_requested";

/** Why a worker's graph was aborted when its run was cancelled (an AbortSignal reason). */
export class RunCancelled extends Error {
  constructor() {
    super("the run was cancelled");
    this.name = "RunCancelled";
  }
}
