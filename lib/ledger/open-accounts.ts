import type { Db } from "@/db/client";
import { ledgerAccounts } from "@/db/schema";
import { newId } from "@/lib/ids";
import type { LedgerAccountRef } from "./post-transaction";

/** Creates these accounts of a business at zero; accounts that already exist are left as they are. */
export async function openAccounts(db: Db, businessId: string, refs: LedgerAccountRef[]): Promise<void> {
  if (!refs.length) return;
  await db
    .insert(ledgerAccounts)
    .values(
      refs.map((ref) => ({
        id: newId("ledgerAccount"),
        businessId,
        kind: ref.kind,
        ownerId: ref.ownerId ?? "",
      })),
    )
    .onConflictDoNothing({
      target: [ledgerAccounts.businessId, ledgerAccounts.kind, ledgerAccounts.ownerId],
    });
}
