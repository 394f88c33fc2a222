"use server";

import { revalidatePath } from "next/cache";
import { createApiKeyAs, revokeApiKeyAs, rollApiKeyAs } from "@/lib/dashboard/api-key-actions";
import { serveStaffAction } from "@/lib/dashboard/serve-staff-action";
import type { ActionResult } from "@/lib/dashboard/staff-action";

/** A key in clear, shown once after create or roll; never stored in the page. */
export type ShownKey = { id: string; kind: string; name: string | null; prefix: string; key: string };
export type ApiKeyActionResult = ActionResult<ShownKey> | null;

const shown = (result: Awaited<ReturnType<typeof createApiKeyAs>>): ApiKeyActionResult => {
  revalidatePath("/dashboard/api-keys");
  if (!result.ok) return result;
  const key = result.data!;
  return { ok: true, message: result.message, data: { id: key.id, kind: key.kind, name: key.name, prefix: key.prefix, key: key.key } };
};

// Create a secret or public key (owner or admin).
export async function createApiKeyAction(_previous: ApiKeyActionResult, form: FormData): Promise<ApiKeyActionResult> {
  return shown(await serveStaffAction(createApiKeyAs, form));
}

// Roll a key with the chosen overlap.
export async function rollApiKeyAction(_previous: ApiKeyActionResult, form: FormData): Promise<ApiKeyActionResult> {
  return shown(await serveStaffAction(rollApiKeyAs, form));
}

// Revoke a key (confirmed in the page).
export async function revokeApiKeyAction(_previous: ActionResult | null, form: FormData): Promise<ActionResult | null> {
  const result = await serveStaffAction(revokeApiKeyAs, form);
  revalidatePath("/dashboard/api-keys");
  return result.ok ? { ok: true, message: result.message } : result;
}
