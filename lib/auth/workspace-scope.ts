import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The workspace scope of the request being served (docs/api.md "API keys"): a key made for
 * one workspace reaches only that workspace. `withUser` runs every handler inside the scope
 * of its credentials, and the membership lookups (lib/auth/membership.ts `roleIn`, `rolesOf`,
 * `memberOf`, `membershipWhere`) read it, so a workspace outside the scope is "not a member"
 * (404) for every route at once, with no route having to remember it.
 *
 * Kept on globalThis so that every route module copy of the process shares one store.
 */
const g = globalThis as { __phylacteryWorkspaceScope?: AsyncLocalStorage<{ workspaceId: string | null }> };
g.__phylacteryWorkspaceScope ??= new AsyncLocalStorage<{ workspaceId: string | null }>();
const store = g.__phylacteryWorkspaceScope;

/**
 * Runs `fn` with the workspace scope `workspaceId` (null: every workspace of the user, as
 * for a session or an unscoped key). Everything `fn` awaits or starts sees the scope.
 * @returns what `fn` returns.
 */
export function runInWorkspaceScope<T>(workspaceId: string | null, fn: () => T): T {
  return store.run({ workspaceId }, fn);
}

/** The workspace id the current request is limited to, or null when it is not limited. */
export function workspaceScope(): string | null {
  return store.getStore()?.workspaceId ?? null;
}

/**
 * `fn` bound to the current scope: for callbacks that another context calls later (a bus
 * subscriber runs in the publisher's context, which has no scope), so that a live stream
 * opened with a scoped key stays scoped.
 */
export function bindWorkspaceScope<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  const workspaceId = workspaceScope();
  return (...args) => store.run({ workspaceId }, () => fn(...args));
}
