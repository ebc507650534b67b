/**
 * Who may do what with a workspace's library (docs/library.md "Who can do what"): every
 * member lists it (capability "see"); only owners upload and delete ("manage"), since what
 * they put there reaches every thread of the flows that mount it. The routes declare it to
 * the route wrapper (lib/http/with-user.ts `need`), which answers 404 for a non-member, or a
 * workspace outside the API key's scope, and 403 ("role_forbidden") with this refusal.
 */
export const LIBRARY_REFUSAL = "only owners upload and delete library files. Ask an owner.";
