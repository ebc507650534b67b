"use server";
import { AuthError } from "next-auth";
import { headers } from "next/headers";
import { signIn } from "@/lib/auth/auth";
import { clientAddress, signInWaitMs, throttledMessage } from "@/lib/auth/throttle";
import { db } from "@/lib/db/client";

/** State of the sign-in form: an error message to show, or null, and the email typed. */
export type SignInState = { error: string | null; email?: string };

/**
 * Signs in with email and password (Auth.js credentials) and redirects to the flows page.
 * Wrong credentials come back as a message; a locked account or address (docs/security.md
 * "Sign-in") says how long to wait. The redirect itself is thrown by Auth.js.
 */
export async function signInAction(_prev: SignInState, form: FormData): Promise<SignInState> {
  // A server action can be called with any arguments: take only a form with two short texts.
  const rawEmail = form instanceof FormData ? form.get("email") : null;
  const password = form instanceof FormData ? form.get("password") : null;
  if (typeof rawEmail !== "string" || typeof password !== "string" || rawEmail.length > 320 || password.length > 200) {
    return { error: "Enter your email and password." };
  }
  const email = rawEmail;
  const waitMs = await signInWaitMs(db(), { email, address: clientAddress(await headers()) });
  if (waitMs > 0) return { error: throttledMessage(waitMs), email };
  try {
    await signIn("credentials", { email, password, redirectTo: "/flows" });
    return { error: null };
  } catch (err) {
    if (err instanceof AuthError) {
      const after = await signInWaitMs(db(), { email, address: clientAddress(await headers()) });
      return { error: after > 0 ? throttledMessage(after) : "Wrong email or password.", email };
    }
    throw err;
  }
}
