import "server-only";
import { PrismaAdapter } from "@auth/prisma-adapter";
import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { z } from "zod";
import { db } from "../db/client";
import { logger } from "../log";
import { secretsEnv } from "./secrets-env";
import { passwordMatches } from "./password";
import { clientAddress, recordSignInFailure, recordSignInSuccess, reserveSignInAttempt } from "./throttle";

/** What the sign-in form posts (every body validated with zod). */
export const SignInInput = z.object({
  email: z.string().trim().toLowerCase().email(),
  password: z.string().min(1).max(200),
});

/**
 * Checks an email and password against the stored bcrypt hash. An email with no account
 * costs the same bcrypt comparison, against a dummy hash (lib/auth/password.ts), so timing
 * does not tell which emails have accounts (docs/security.md "Sign-in").
 * @returns the user's id, email and name, or null when they don't match.
 */
export async function verifyCredentials(raw: unknown): Promise<{ id: string; email: string; name: string | null } | null> {
  const parsed = SignInInput.safeParse(raw);
  if (!parsed.success) return null;
  const user = await db().user.findUnique({ where: { email: parsed.data.email } });
  const ok = await passwordMatches(user?.passwordHash, parsed.data.password);
  return ok && user ? { id: user.id, email: user.email, name: user.name } : null;
}

/**
 * The sign-in failure of an attempt that found no place left in the throttle: Auth.js
 * redirects with `code=signin_throttled` (docs/security.md "Sign-in"), and no password was
 * checked.
 */
export class SignInThrottled extends CredentialsSignin {
  code = "signin_throttled";
}

const config = (): NextAuthConfig => ({
  // Credentials sign-in needs JWT sessions; the adapter keeps Auth.js users and accounts
  // in our Prisma models.
  adapter: PrismaAdapter(db() as never),
  session: { strategy: "jwt", maxAge: 7 * 24 * 3600 },
  secret: secretsEnv(),
  trustHost: true,
  pages: { signIn: "/sign-in" },
  // A wrong password is an expected outcome shown on the form, not a server error.
  logger: {
    error(err) {
      if ((err as { type?: string }).type !== "CredentialsSignin") logger.error({ err, module: "auth" }, "auth error");
    },
  },
  providers: [
    Credentials({
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      authorize: async (credentials, request) => {
        // Throttled per account and per address (docs/security.md "Sign-in"): the attempt is
        // reserved atomically before its password is checked, so a burst gets no more checks.
        const source = { email: String(credentials?.email ?? ""), address: clientAddress(request.headers) };
        if (!(await reserveSignInAttempt(db(), source))) throw new SignInThrottled();
        const user = await verifyCredentials(credentials);
        if (user) await recordSignInSuccess(db(), source);
        else await recordSignInFailure(db(), source);
        return user;
      },
    }),
  ],
  callbacks: {
    jwt({ token, user }) {
      if (user?.id) token.sub = user.id;
      return token;
    },
    session({ session, token }) {
      if (token.sub) session.user.id = token.sub;
      return session;
    },
  },
});

/** Auth.js entry points: route handlers, `auth()` for the session, sign in and out. */
export const { handlers, auth, signIn, signOut } = NextAuth(() => config());
