import type { ReactNode } from "react";

/** A settings form's submit button, on its own line under the fields; disabled while `busy`. */
export function SubmitButton({ busy, testId, children }: { busy: boolean; testId: string; children: ReactNode }) {
  return (
    <span>
      <button type="submit" disabled={busy} data-testid={testId}>
        {children}
      </button>
    </span>
  );
}
