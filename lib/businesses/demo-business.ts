import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { businesses, demoCredentials } from "@/db/schema";
import { decrypt } from "@/lib/crypto";
import { createBusiness } from "./create-business";

/** The sandbox demo business: created on first start, and its keys read back on every later one. */
export async function ensureDemoBusiness(db: Db) {
  const [existing] = await db
    .select({ business: businesses, credentials: demoCredentials })
    .from(demoCredentials)
    .innerJoin(businesses, eq(businesses.id, demoCredentials.businessId))
    .limit(1);
  if (existing) {
    let keys: { secretKey: string; publicKey: string };
    try {
      keys = {
        secretKey: decrypt(existing.credentials.secretKeyEnc),
        publicKey: decrypt(existing.credentials.publicKeyEnc),
      };
    } catch {
      throw new Error(
        "Cannot read the demo business's keys: this database was set up with another ENCRYPTION_KEY (or DATA_DIR/encryption.key).",
      );
    }
    return { business: existing.business, ...keys, created: false };
  }
  const created = await createBusiness(db, {
    name: "Demo Shop",
    mode: "sandbox",
    isDemo: true,
    payoutsEnabled: true,
  });
  return { business: created.business, secretKey: created.secretKey, publicKey: created.publicKey, created: true };
}
