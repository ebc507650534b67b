import type { ReactNode } from "react";

/**
 * One settings card: a titled section (a workspace's secrets, webhooks, library, members…).
 * @param testId its `data-testid`, which e2e page objects find the card by.
 */
export function SettingsCard({ testId, title, children }: { testId: string; title: ReactNode; children: ReactNode }) {
  return (
    <section className="card stack" data-testid={testId}>
      <h3>{title}</h3>
      {children}
    </section>
  );
}
