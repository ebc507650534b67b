"use client";
import { useActionState } from "react";
import { type SignInState, signInAction } from "./actions";

/** The sign-in form; shows the server's error message inline. */
export function SignInForm({ defaultEmail }: { defaultEmail: string }) {
  const [state, action, pending] = useActionState<SignInState, FormData>(signInAction, { error: null });
  return (
    <form action={action} className="card stack" data-testid="sign-in-form">
      <label>
        Email
        <input name="email" type="email" autoComplete="username" required defaultValue={state.email ?? defaultEmail} data-testid="sign-in-email" />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required data-testid="sign-in-password" />
      </label>
      {state.error ? (
        <p className="error" role="alert" data-testid="sign-in-error">
          {state.error}
        </p>
      ) : null}
      <button type="submit" disabled={pending} data-testid="sign-in-submit">
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
