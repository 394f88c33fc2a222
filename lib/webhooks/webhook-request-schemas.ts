import { z } from "zod";
import { instantField } from "@/lib/http/instant-param";
import { maxRotationOverlapSeconds } from "./webhook-token";

/** The bodies of the webhook operations: lib/api/webhooks.ts parses them, the OpenAPI document shows them. */

/** Body of POST /webhooks/events/resend-failed. */
export const resendFailedSchema = z.object({
  since: instantField("since", "since is required: an ISO 8601 time such as 2026-11-22T04:00:00Z"),
});

const overlapMessage = `overlap_seconds must be an integer from 0 to ${maxRotationOverlapSeconds} (7 days)`;
/** Body of POST /webhooks/token/rotate. */
export const rotateWebhookTokenSchema = z.object({
  overlap_seconds: z
    .number({ error: overlapMessage })
    .int({ error: overlapMessage })
    .min(0, { error: overlapMessage })
    .max(maxRotationOverlapSeconds, { error: overlapMessage })
    .nullable()
    .optional(),
});
