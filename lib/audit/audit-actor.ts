import { AsyncLocalStorage } from "node:async_hooks";

/** Where the request that made a change came from. */
export type AuditClient = { ip: string | null; userAgent: string | null };

/**
 * Who is making changes in the code running now (decision 0045): a staff member of the dashboard
 * or the support console, or a secret key of the API. Set once at the edge (apiHandler, the
 * dashboard's action wrappers), read by recordAudit inside each service's transaction, so the
 * services' signatures need not carry it.
 */
export type AuditActor =
  | ({ type: "user"; userId: string; email: string } & AuditClient)
  | ({ type: "api_key"; keyId: string; prefix: string } & AuditClient)
  | ({ type: "system" } & AuditClient);

/** Kassa itself as the author (e.g. a failing webhook endpoint disabled by a delivery job). */
export const systemActor: AuditActor = { type: "system", ip: null, userAgent: null };

const storage = new AsyncLocalStorage<AuditActor>();

/** Runs `work` with `actor` as the author of every change it records. */
export function withAuditActor<T>(actor: AuditActor, work: () => T): T {
  return storage.run(actor, work);
}

/** The actor of the code running now; null in jobs, the CLI and provider callbacks. */
export function currentAuditActor(): AuditActor | null {
  return storage.getStore() ?? null;
}

/** A staff member as an actor (the client is known when the request was a browser's). */
export function staffActor(staff: { userId: string; email: string; client?: AuditClient }): AuditActor {
  return {
    type: "user",
    userId: staff.userId,
    email: staff.email,
    ip: staff.client?.ip ?? null,
    userAgent: staff.client?.userAgent ?? null,
  };
}

const maxUserAgent = 512;

/** A user agent as stored: at most 512 characters. */
export function trimUserAgent(value: string | null | undefined): string | null {
  return value ? value.slice(0, maxUserAgent) : null;
}
