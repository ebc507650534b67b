"use client";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { LocalTime } from "@/components/ui/local-time";
import { notify } from "@/components/ui/notify";
import { ConfirmAction } from "./confirm-action";
import { CopyButton } from "./copy-button";
import { FormError } from "./form-error";
import { RowTable } from "./row-table";
import { SettingsCard } from "./settings-card";
import { SubmitButton } from "./submit-button";
import { useApiCall } from "./use-api-call";
import type { DeliveryView } from "@/lib/webhooks/deliveries";

/** The events a webhook can listen to, with people's words for them (docs/webhooks.md "Events"). */
const EVENTS = [
  { name: "approval.required", label: "Approval required" },
  { name: "approval.decided", label: "Approval decided" },
  { name: "run.finished", label: "Run finished" },
  { name: "run.failed", label: "Run failed" },
] as const;

/** A webhook as `GET /api/workspaces/:id/webhooks` answers it. */
export interface WebhookRow {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  createdAt: string;
  pending: number;
  failed: number;
}

/** A delivery as `GET .../webhooks/:webhookId/deliveries` answers it. */
type DeliveryRow = DeliveryView;

async function errorText(res: Response): Promise<string> {
  const err = await res.json().catch(() => null);
  return err?.error?.message ?? `The server answered HTTP ${res.status}; reload the page and try again.`;
}

/**
 * One workspace's webhooks, for its owners (docs/webhooks.md "Managing webhooks"): an add
 * form (URL and events) whose answer shows the signing secret once with a Copy button, the
 * list with enable/disable and delete, and a delivery log per webhook with Redeliver.
 */
export function WebhooksSection({ workspace, webhooks }: { workspace: { id: string; name: string }; webhooks: WebhookRow[] }) {
  const base = `/api/workspaces/${encodeURIComponent(workspace.id)}/webhooks`;
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[]>(EVENTS.map((e) => e.name));
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const { call, busy, error } = useApiCall();
  const adder = useApiCall();

  async function add(e: FormEvent) {
    e.preventDefault();
    adder.setError(null);
    if (!url.trim()) return adder.setError("url: enter the https URL that should receive the webhooks.");
    if (events.length === 0) return adder.setError("events: choose at least one event.");
    const created = await adder.request<{ secret: string }>(base, "POST", { url: url.trim(), events }, "Webhook added.");
    if (!created) return;
    setSecret(created.secret);
    setUrl("");
  }

  const toggle = (name: string) => setEvents((now) => (now.includes(name) ? now.filter((n) => n !== name) : [...now, name]));
  const labelOf = (name: string) => EVENTS.find((e) => e.name === name)?.label ?? name;

  return (
    <SettingsCard testId={`webhooks-${workspace.id}`} title={`Webhooks of ${workspace.name}`}>
      <p className="muted small">
        Phylactery POSTs a signed JSON body to each URL when an event it listens to happens, and retries failures with backoff. Check the <code>webhook-signature</code> header with the secret (see
        docs/webhooks.md).
      </p>
      {secret ? (
        <div className="card stack" aria-live="polite" data-testid="webhook-secret">
          <strong>Signing secret: copy it now, it is not shown again.</strong>
          <code data-testid="webhook-secret-value" style={{ wordBreak: "break-all" }}>
            {secret}
          </code>
          <span className="row gap">
            <CopyButton text={secret} copied="Secret copied." failed="Could not copy: select the secret and copy it by hand." testId="webhook-secret-copy" />
            <button type="button" className="secondary" onClick={() => setSecret(null)} data-testid="webhook-secret-done">
              I stored it
            </button>
          </span>
        </div>
      ) : null}
      <RowTable columns={["URL", "Events", "State"]} rows={webhooks.length} empty="No webhooks yet: add a URL below to be told when an approval is waiting or a run ends." emptyTestId="webhooks-empty">
        {webhooks.map((w) => (
          <WebhookListRow
            key={w.id}
            hook={w}
            base={`${base}/${encodeURIComponent(w.id)}`}
            labelOf={labelOf}
            busy={busy}
            confirming={confirming === w.id}
            setConfirming={(on) => setConfirming(on ? w.id : null)}
            open={open === w.id}
            setOpen={(on) => setOpen(on ? w.id : null)}
            call={call}
          />
        ))}
      </RowTable>
      <FormError error={error} testId="webhooks-error" />
      <form className="stack" onSubmit={add} noValidate>
        <label>
          URL
          <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://hooks.example.com/phylactery" data-testid="webhook-add-url" />
        </label>
        <fieldset className="row gap" style={{ flexWrap: "wrap" }}>
          <legend className="small">Events</legend>
          {EVENTS.map((e) => (
            <label key={e.name} className="row gap small">
              <input type="checkbox" checked={events.includes(e.name)} onChange={() => toggle(e.name)} data-testid={`webhook-add-event-${e.name}`} />
              {e.label}
            </label>
          ))}
        </fieldset>
        <SubmitButton busy={adder.busy} testId="webhook-add-submit">
          Add webhook
        </SubmitButton>
        <FormError error={adder.error} testId="webhook-add-error" />
      </form>
    </SettingsCard>
  );
}

function WebhookListRow(props: {
  hook: WebhookRow;
  base: string;
  labelOf: (name: string) => string;
  busy: boolean;
  confirming: boolean;
  setConfirming: (on: boolean) => void;
  open: boolean;
  setOpen: (on: boolean) => void;
  call: ReturnType<typeof useApiCall>["call"];
}) {
  const { hook: w, base, busy, call } = props;
  return (
    <>
      <tr data-testid={`webhook-row-${w.id}`}>
        <td style={{ wordBreak: "break-all" }}>{w.url}</td>
        <td className="small">{w.events.map(props.labelOf).join(", ")}</td>
        <td>
          <span className={`badge ${w.enabled ? "" : "status-pending"}`} data-testid={`webhook-state-${w.id}`}>
            {w.enabled ? "enabled" : "disabled"}
          </span>
          {w.pending > 0 ? <span className="small muted"> {w.pending} pending</span> : null}
          {w.failed > 0 ? <span className="small error"> {w.failed} failed</span> : null}
        </td>
        <td>
          <span className="row gap">
            <button type="button" className="secondary" onClick={() => props.setOpen(!props.open)} data-testid={`webhook-log-${w.id}`}>
              {props.open ? "Hide deliveries" : "Deliveries"}
            </button>
            <button
              type="button"
              className="secondary"
              disabled={busy}
              onClick={() => call(base, "PATCH", { enabled: !w.enabled }, w.enabled ? "Webhook disabled." : "Webhook enabled.")}
              data-testid={`webhook-toggle-${w.id}`}
            >
              {w.enabled ? "Disable" : "Enable"}
            </button>
            <ConfirmAction
              confirming={props.confirming}
              setConfirming={props.setConfirming}
              onConfirm={() => call(base, "DELETE", undefined, "Webhook deleted.")}
              busy={busy}
              label="Delete"
              prompt="Delete it and its log?"
              confirmLabel="Delete"
              testId={`webhook-delete-${w.id}`}
              confirmTestId={`webhook-delete-confirm-${w.id}`}
            />
          </span>
        </td>
      </tr>
      {props.open ? (
        <tr>
          <td colSpan={4}>
            <DeliveryLog base={base} enabled={w.enabled} labelOf={props.labelOf} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function DeliveryLog({ base, enabled, labelOf }: { base: string; enabled: boolean; labelOf: (name: string) => string }) {
  const [rows, setRows] = useState<DeliveryRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    setError(null);
    try {
      const res = await fetch(`${base}/deliveries`);
      if (!res.ok) return setError(await errorText(res));
      setRows(((await res.json()) as { deliveries: DeliveryRow[] }).deliveries);
    } catch {
      setError("Could not reach the server; check that it is running and try again.");
    } finally {
      setLoading(false);
    }
  }, [base]);

  useEffect(() => {
    void load();
  }, [load]);

  async function redeliver(id: string) {
    setError(null);
    const res = await fetch(`${base}/deliveries/${encodeURIComponent(id)}/redeliver`, { method: "POST" }).catch(() => null);
    if (!res) return setError("Could not reach the server; check that it is running and try again.");
    if (!res.ok) return setError(await errorText(res));
    notify.success("Sent again as a new delivery.");
    await load();
  }

  return (
    <div className="stack" data-testid="webhook-deliveries">
      <span className="row gap">
        <strong className="small">Last 50 deliveries, newest first</strong>
        <button type="button" className="secondary" disabled={loading} onClick={() => load()} data-testid="webhook-deliveries-refresh">
          Refresh
        </button>
      </span>
      {rows ? (
        <RowTable
          columns={["Event", "Status", "Attempts", "Last answer", "Time"]}
          rows={rows.length}
          empty="No deliveries yet: one appears here when an event this webhook listens to happens."
          emptyTestId="webhook-deliveries-empty"
          emptyClassName="muted small"
        >
          {rows.map((d) => (
            <tr key={d.id} data-testid={`delivery-row-${d.id}`}>
              <td className="small">
                {labelOf(d.event)}
                {d.redeliveryOf ? <span className="muted"> (redelivery)</span> : null}
              </td>
              <td>
                <span className={`badge status-${d.status === "succeeded" ? "completed" : d.status}`} data-testid={`delivery-status-${d.id}`}>
                  {d.status}
                </span>
                {d.status === "pending" && d.nextAttemptAt ? (
                  <span className="small muted">
                    {" "}
                    next <LocalTime at={d.nextAttemptAt} style="time" />
                  </span>
                ) : null}
              </td>
              <td>{d.attempts}</td>
              <td className="small">
                {d.lastStatus !== null ? `HTTP ${d.lastStatus}` : null}
                {d.lastError && d.lastError !== `HTTP ${d.lastStatus}` ? <span className="muted"> {d.lastError}</span> : null}
                {d.lastStatus === null && !d.lastError ? <span className="muted">none yet</span> : null}
              </td>
              <td className="small">
                <LocalTime at={d.lastAttemptAt ?? d.createdAt} style="seconds" />
              </td>
              <td>
                <button
                  type="button"
                  className="secondary"
                  disabled={!enabled}
                  title={enabled ? "Send this body again as a new delivery" : "Enable the webhook to redeliver"}
                  onClick={() => redeliver(d.id)}
                  data-testid={`delivery-redeliver-${d.id}`}
                >
                  Redeliver
                </button>
              </td>
            </tr>
          ))}
        </RowTable>
      ) : null}
      <FormError error={error} small />
    </div>
  );
}
