/**
 * Approval changes between server processes (docs/architecture.md#live-streams): every
 * change published on the approval bus (lib/events/approval-bus.ts) is also notified on this
 * fan-out channel, so the inbox list and badge of a browser served by instance B update when
 * an approval is created or decided on instance A. The payload is the change itself (ids,
 * type, status, time: well under the 8000-byte NOTIFY limit); listeners re-read the database.
 */
import { APPROVALS_CHANNEL, ApprovalEvent } from "./approval-bus";
import type { Fanout, Unlisten } from "./fanout";
import { fanout as processFanout } from "./fanout-of";

/**
 * Calls `listener` with every approval change notified by any process on the database
 * (this one included: exactly once per change). Malformed payloads are dropped.
 * @param from the fan-out (defaults to the process's, lib/events/fanout-of.ts).
 * @returns the function that stops listening (its `ready` settles once listening).
 */
export function onApprovalAnywhere(listener: (event: ApprovalEvent) => void, from: Fanout = processFanout()): Unlisten {
  return from.listen(APPROVALS_CHANNEL, (payload) => {
    const e = ApprovalEvent.safeParse(payload);
    if (e.success) listener(e.data);
  });
}
