"use server";

import { revalidatePath } from "next/cache";
import { serveStaffAction } from "@/lib/dashboard/serve-staff-action";
import type { ActionResult } from "@/lib/dashboard/staff-action";
import {
  pauseWebhookEndpointAs,
  resumeWebhookEndpointAs,
  resendFailedWebhookEventsAs,
  resendWebhookEventAs,
  revealWebhookTokenAs,
  rotateWebhookTokenAs,
  sendTestWebhookEventAs,
  updateWebhookEndpointAs,
} from "@/lib/dashboard/webhook-actions";

export type WebhookActionResult = ActionResult | null;
/** Token reveal and rotation answer the token (shown in the page, never stored there). */
export type WebhookTokenResult = ActionResult<string> | null;

const plain = (result: ActionResult<unknown>): ActionResult => {
  revalidatePath("/dashboard/webhooks");
  return result.ok ? { ok: true, message: result.message } : result;
};

// Endpoint settings: URL (empty stops sending) and the enabled event kinds.
export async function updateWebhookEndpointAction(_previous: WebhookActionResult, form: FormData): Promise<WebhookActionResult> {
  const events = form.getAll("events").filter((e) => typeof e === "string");
  return plain(await serveStaffAction(updateWebhookEndpointAs, form, { events }));
}

// Show the signing token (click to reveal).
export async function revealWebhookTokenAction(_previous: WebhookTokenResult, form: FormData): Promise<WebhookTokenResult> {
  return serveStaffAction(revealWebhookTokenAs, form);
}

// Rotate the signing token with an overlap.
export async function rotateWebhookTokenAction(_previous: WebhookTokenResult, form: FormData): Promise<WebhookTokenResult> {
  const result = await serveStaffAction(rotateWebhookTokenAs, form);
  revalidatePath("/dashboard/webhooks");
  return result;
}

// Send one event again.
export async function resendWebhookEventAction(_previous: WebhookActionResult, form: FormData): Promise<WebhookActionResult> {
  return plain(await serveStaffAction(resendWebhookEventAs, form));
}

// Resend every event that finally failed since a time.
export async function resendFailedWebhookEventsAction(_previous: WebhookActionResult, form: FormData): Promise<WebhookActionResult> {
  return plain(await serveStaffAction(resendFailedWebhookEventsAs, form));
}

// Send a test event of a kind.
export async function sendTestWebhookEventAction(_previous: WebhookActionResult, form: FormData): Promise<WebhookActionResult> {
  return plain(await serveStaffAction(sendTestWebhookEventAs, form));
}

// Pause the endpoint by hand (intent=pause), or resume / re-enable it (intent=resume).
export async function setWebhookEndpointStateAction(_previous: WebhookActionResult, form: FormData): Promise<WebhookActionResult> {
  return plain(await serveStaffAction(form.get("intent") === "pause" ? pauseWebhookEndpointAs : resumeWebhookEndpointAs, form));
}
