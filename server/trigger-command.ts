import type { Db } from "@/db/client";
import { webhookEventTypes } from "@/db/schema";
import { BadRequestError, NotFoundError } from "@/lib/errors";
import { triggerEvent, triggerKind, type TriggerResult } from "@/lib/sandbox-trigger/trigger-event";
import { UsageError } from "./usage-error";

/**
 * `npx kassa trigger <kind> --business ID`: an unknown kind or business is a usage error (exit
 * 2); a live business, or a kind it does not receive, a refusal (exit 1); nothing is made then.
 */
export async function triggerCommand(
  db: Db,
  input: { kind: string | undefined; businessId: string },
): Promise<{ json: TriggerResult; text: string }> {
  if (!input.kind) throw new UsageError(`name the event kind (one of ${webhookEventTypes.join(", ")})`);
  let result: TriggerResult;
  try {
    result = await triggerEvent(db, input.businessId, triggerKind(input.kind));
  } catch (error) {
    if (error instanceof NotFoundError && error.code === "business_not_found") throw new UsageError(error.message);
    if (error instanceof BadRequestError && error.code === "unknown_kind") throw new UsageError(error.message);
    throw error;
  }
  const objects = Object.entries(result.objects).map(([name, id]) => `  ${name.padEnd(16)}${id}`);
  const text = [
    `Triggered ${result.event.type} for ${result.business_id}: event ${result.event.id} (${result.event.status}).`,
    ...objects,
  ].join("\n");
  return { json: result, text };
}
