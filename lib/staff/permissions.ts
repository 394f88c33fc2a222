import type { StaffAction, StaffRole } from "./staff-types";

/**
 * Role × action (decision 0018). Owners do everything in their businesses; managers run the
 * business (refunds, reviews, subscriptions, payouts, webhooks) but do not hold its credentials
 * (API keys) or change its settings or its team (invitations, roles: decision 0044); support
 * (`admin`) does everything in any business but hold the merchant's own Stripe keys: only an
 * owner connects, replaces or disconnects Stripe.
 */
export const permissionMatrix: Record<StaffRole, Record<StaffAction, boolean>> = {
  owner: { read: true, refund: true, review: true, subscriptions: true, payouts: true, webhooks: true, api_keys: true, settings: true, team: true, stripe: true, audit: true, payment_links: true },
  manager: { read: true, refund: true, review: true, subscriptions: true, payouts: true, webhooks: true, api_keys: false, settings: false, team: false, stripe: false, audit: false, payment_links: true },
  admin: { read: true, refund: true, review: true, subscriptions: true, payouts: true, webhooks: true, api_keys: true, settings: true, team: true, stripe: false, audit: true, payment_links: true },
};

export function rolePermits(role: StaffRole, action: StaffAction): boolean {
  return permissionMatrix[role][action];
}
