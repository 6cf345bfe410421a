import type { DbOrTx } from "#server/db/client";

export const ROLES = ["producer", "admin", "promoter", "promoter_lead", "marketing"] as const;
export type Role = (typeof ROLES)[number];

export type Actor =
  | { kind: "anonymous" }
  | {
      kind: "user";
      userId: string;
      email: string;
      roles: Role[];
      sessionId?: string;
      /** The browser's remembered-device token (cookie `dispositivo-2fa`, decision 133), when it sent one. */
      deviceToken?: string;
    };

/** What every domain function receives (docs/architecture.md, "Un dominio, dos puertas"). */
export interface Ctx {
  db: DbOrTx;
  actor: Actor;
  now: Date;
  /** Client address, for rate limits. */
  ip?: string;
  /**
   * The virtual queue's admission the browser carried (cookie `admision-fila`, already verified: signature and
   * expiry; docs/queue.md). The domain still checks it is for this account and this event.
   */
  admission?: AdmissionGrant;
}

/** A signed, short-lived permission to buy for one event, bound to one account (server/queue/admission.ts). */
export interface AdmissionGrant {
  eventId: string;
  userId: string;
  placeId: string;
  expiresAt: Date;
}

export const ANONYMOUS: Actor = { kind: "anonymous" };

export function hasRole(actor: Actor, role: Role): boolean {
  return actor.kind === "user" && actor.roles.includes(role);
}
