import { LogOut } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { ApprovalsNavLink } from "@/components/approvals/approvals-badge";
import { pendingCount } from "@/lib/approvals/inbox";
import { signOut } from "@/lib/auth/auth";
import { db } from "@/lib/db/client";
import { myInvitations } from "@/lib/db/invitation-answers";
import { Logo } from "@/components/ui/logo";
import { requireUser } from "@/lib/http/with-user";

export const dynamic = "force-dynamic";

/**
 * Signed-in shell: navigation (with the live count of approvals waiting for the user, and
 * of invitations waiting for their answer on Settings) and the account menu. Every page under it needs a session.
 */
export default async function AppLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const [pending, invitations] = await Promise.all([pendingCount(db(), user.id), myInvitations(db(), user.id)]);
  return (
    <>
      <header className="topbar">
        <Link href="/flows" className="brand">
          <Logo />
          Phylactery
        </Link>
        <nav>
          <Link href="/flows">Flows &amp; runs</Link>
          <ApprovalsNavLink initialCount={pending} />
          <Link href="/memory">Memory</Link>
          <Link href="/api-reference" data-testid="nav-api-reference">
            API
          </Link>
          <Link href="/settings" data-testid="nav-settings">
            Settings
            {invitations.length > 0 ? (
              <span className="badge status-pending" data-testid="nav-invitations" title="Invitations waiting for your answer">
                {invitations.length}
              </span>
            ) : null}
          </Link>
        </nav>
        <form
          action={async () => {
            "use server";
            await signOut({ redirectTo: "/sign-in" });
          }}
        >
          <span className="muted small" data-testid="current-user">
            {user.email}
          </span>{" "}
          <button type="submit" className="link">
            <LogOut className="icon" size="1em" />
            Sign out
          </button>
        </form>
      </header>
      {children}
    </>
  );
}
