import type { ReactNode } from "react";

/**
 * A destructive button that asks first (delete, revoke, remove): `label` until clicked, then
 * the optional `prompt`, a danger button `confirmLabel` that runs `onConfirm`, and `cancelLabel`.
 * The parent holds which row is confirming (one at a time), so it passes `confirming` and
 * `setConfirming`. `row` wraps the question in a `row gap` span (when the cell has no other
 * buttons to sit beside). Both action buttons are disabled while `busy`; cancel never is.
 */
export function ConfirmAction(props: {
  confirming: boolean;
  setConfirming: (on: boolean) => void;
  onConfirm: () => void;
  busy: boolean;
  label: string;
  confirmLabel: ReactNode;
  cancelLabel?: string;
  prompt?: ReactNode;
  row?: boolean;
  testId: string;
  confirmTestId: string;
}) {
  const { busy, setConfirming } = props;
  if (!props.confirming) {
    return (
      <button type="button" className="secondary" disabled={busy} onClick={() => setConfirming(true)} data-testid={props.testId}>
        {props.label}
      </button>
    );
  }
  const question = (
    <>
      {props.prompt ? <span className="small">{props.prompt}</span> : null}
      <button type="button" className="danger" disabled={busy} onClick={props.onConfirm} data-testid={props.confirmTestId}>
        {props.confirmLabel}
      </button>
      <button type="button" className="secondary" onClick={() => setConfirming(false)}>
        {props.cancelLabel ?? "Cancel"}
      </button>
    </>
  );
  return props.row ? <span className="row gap">{question}</span> : question;
}
