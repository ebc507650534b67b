// GET|POST /api/auth/* - Auth.js (next-auth) sign-in, sign-out, session and CSRF endpoints.
import { handlers } from "@/lib/auth/auth";

export const { GET, POST } = handlers;
