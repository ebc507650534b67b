"use server";
import { AuthError } from "next-auth";
import { signIn } from "@/lib/auth/auth";

/** State of the sign-in form: an error message to show, or null. */
export type SignInState = { error: string | null };

/**
 * Signs in with email and password (Auth.js credentials) and redirects to the flows page.
 * Wrong credentials come back as a message; the redirect itself is thrown by Auth.js.
 */
export async function signInAction(_prev: SignInState, form: FormData): Promise<SignInState> {
  try {
    await signIn("credentials", { email: form.get("email"), password: form.get("password"), redirectTo: "/flows" });
    return { error: null };
  } catch (err) {
    if (err instanceof AuthError) return { error: "Wrong email or password. The demo account is printed by `npm start`." };
    throw err;
  }
}
