"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/lib/db";
import { ForbiddenError, SubscriptionNotFoundError } from "@/lib/errors";
import { log } from "@/lib/log";
import { cancelManagedSubscription } from "@/lib/subscriptions/cancel-managed-subscription";
import { resumeManagedSubscription } from "@/lib/subscriptions/resume-managed-subscription";
import type { ManageResult } from "./manage-result";

// Form POSTs only (Next checks their Origin); the token in the URL is the credential, so the
// actions re-read everything from it and trust nothing else the form sends.

export async function cancelFromLink(token: string): Promise<void> {
  await change(token, cancelManagedSubscription, "canceled");
}

export async function resumeFromLink(token: string): Promise<void> {
  await change(token, resumeManagedSubscription, "resumed");
}

async function change(
  token: string,
  service: (db: Awaited<ReturnType<typeof getDb>>, token: string) => Promise<unknown>,
  done: ManageResult,
): Promise<void> {
  let result: ManageResult | null = done;
  try {
    await service(await getDb(), token);
  } catch (error) {
    result = outcomeOf(error);
    if (result === "failed") log.warn("management page change failed", { done, error });
  }
  // Back to the page (it shows the not-found page for an unknown token).
  const page = `/manage/${encodeURIComponent(token)}`;
  redirect(result ? `${page}?result=${result}` : page);
}

function outcomeOf(error: unknown): ManageResult | null {
  if (error instanceof SubscriptionNotFoundError) return null;
  // The provider refused or was unreachable, or the row moved: nothing changed, the customer may retry.
  return error instanceof ForbiddenError ? "not_allowed" : "failed";
}
