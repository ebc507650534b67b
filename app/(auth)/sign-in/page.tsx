import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Logo } from "@/components/ui/logo";
import { currentUser } from "@/lib/http/with-user";
import { SignInForm } from "./sign-in-form";

export const dynamic = "force-dynamic";

export const metadata: Metadata = { title: "Sign in" };

/** Sign-in page (the only page that needs no session). */
export default async function SignInPage() {
  if (await currentUser()) redirect("/flows");
  return (
    <main className="narrow">
      <h1 className="brand-title">
        <Logo size={32} /> Phylactery
      </h1>
      <p className="muted">Design flows of AI agents and the policies that govern them, run them, and approve every risky action.</p>
      <SignInForm defaultEmail="" />
      <p className="muted small">
        First time here? <code>npm start</code> printed the demo account (by default <code>demo@phylactery.dev</code> / <code>phylactery</code>).
      </p>
    </main>
  );
}
