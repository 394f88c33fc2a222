"use server";

import { revalidatePath } from "next/cache";
import { formObject, type ActionResult } from "@/lib/dashboard/run-staff-action";
import { staffForAction } from "@/lib/dashboard/staff-for-action";
import {
  resendFailedWebhookEventsAs,
  resendWebhookEventAs,
  revealWebhookTokenAs,
  rotateWebhookTokenAs,
  sendTestWebhookEventAs,
  updateWebhookEndpointAs,
} from "@/lib/dashboard/webhook-actions";
import { getDb } from "@/lib/db";

export type WebhookActionResult = ActionResult | null;
/** Token reveal and rotation answer the token (shown in the page, never stored there). */
export type WebhookTokenResult = ActionResult<string> | null;

const plain = (result: ActionResult<unknown>): ActionResult => {
  revalidatePath("/dashboard/webhooks");
  return result.ok ? { ok: true, message: result.message } : result;
};

// Endpoint settings: URL (empty stops sending) and the enabled event kinds.
export async function updateWebhookEndpointAction(_previous: WebhookActionResult, form: FormData): Promise<WebhookActionResult> {
  const found = await staffForAction("webhooks");
  if ("refused" in found) return found.refused;
  const input = { ...formObject(form), events: form.getAll("events").filter((e) => typeof e === "string") };
  return plain(await updateWebhookEndpointAs(await getDb(), found.staff, input));
}

// Show the signing token (click to reveal).
export async function revealWebhookTokenAction(_previous: WebhookTokenResult, form: FormData): Promise<WebhookTokenResult> {
  const found = await staffForAction("webhooks");
  if ("refused" in found) return found.refused;
  return revealWebhookTokenAs(await getDb(), found.staff, formObject(form));
}

// Rotate the signing token with an overlap.
export async function rotateWebhookTokenAction(_previous: WebhookTokenResult, form: FormData): Promise<WebhookTokenResult> {
  const found = await staffForAction("webhooks");
  if ("refused" in found) return found.refused;
  const result = await rotateWebhookTokenAs(await getDb(), found.staff, formObject(form));
  revalidatePath("/dashboard/webhooks");
  return result;
}

// Send one event again.
export async function resendWebhookEventAction(_previous: WebhookActionResult, form: FormData): Promise<WebhookActionResult> {
  const found = await staffForAction("webhooks");
  if ("refused" in found) return found.refused;
  return plain(await resendWebhookEventAs(await getDb(), found.staff, formObject(form)));
}

// Resend every event that finally failed since a time.
export async function resendFailedWebhookEventsAction(_previous: WebhookActionResult, form: FormData): Promise<WebhookActionResult> {
  const found = await staffForAction("webhooks");
  if ("refused" in found) return found.refused;
  return plain(await resendFailedWebhookEventsAs(await getDb(), found.staff, formObject(form)));
}

// Send a test event of a kind.
export async function sendTestWebhookEventAction(_previous: WebhookActionResult, form: FormData): Promise<WebhookActionResult> {
  const found = await staffForAction("webhooks");
  if ("refused" in found) return found.refused;
  return plain(await sendTestWebhookEventAs(await getDb(), found.staff, formObject(form)));
}
