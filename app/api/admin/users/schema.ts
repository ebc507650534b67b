import { NewAccountInput } from "@/lib/db/accounts";

/** POST body: `{ email, name?, password }`; the password has 12 to 72 characters (at most 72 bytes). */
export const Body = NewAccountInput;
