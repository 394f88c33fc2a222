"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/lib/db";
import { log } from "@/lib/log";
import { cancelManagedSubscription } from "@/lib/subscriptions/cancel-managed-subscription";
import { resumeManagedSubscription } from "@/lib/subscriptions/resume-managed-subscription";
import { manageOutcomeOf, type ManageResult } from "./manage-result";

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
    result = manageOutcomeOf(error);
    if (result === "failed") log.warn("management page change failed", { done, error });
  }
  // Back to the page (it shows the not-found page for an unknown token).
  const page = `/manage/${encodeURIComponent(token)}`;
  redirect(result ? `${page}?result=${result}` : page);
}
