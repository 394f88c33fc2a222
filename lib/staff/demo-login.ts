import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { demoLogins, memberships, users } from "@/db/schema";
import { decrypt, encrypt } from "@/lib/crypto";
import { randomToken } from "@/lib/ids";
import { createUser } from "./create-user";
import { verifyPassword } from "./password";
import { StaffInputError } from "./errors";

export const demoLoginEmail = "demo@kassa.local";

/**
 * The demo business's owner login: created on the first start (a generated password, kept
 * encrypted like the demo keys) and read back on every later one, so `npm start` prints it each time;
 * `changed` once someone set another password, which the start banner then does not show.
 */
export async function ensureDemoLogin(
  db: Db,
  businessId: string,
): Promise<{ email: string; password: string; created: boolean; changed: boolean }> {
  const [existing] = await db
    .select({ email: users.email, passwordEnc: demoLogins.passwordEnc, passwordHash: users.passwordHash })
    .from(demoLogins)
    .innerJoin(users, eq(users.id, demoLogins.userId))
    .limit(1);
  if (existing) {
    let password: string;
    try {
      password = decrypt(existing.passwordEnc);
    } catch {
      throw new Error(
        "Cannot read the demo login's password: this database was set up with another ENCRYPTION_KEY (or DATA_DIR/encryption.key).",
      );
    }
    const changed = !(await verifyPassword(existing.passwordHash, password));
    return { email: existing.email, password, created: false, changed };
  }
  const password = randomToken(20);
  const created = await createUser(db, { email: demoLoginEmail, password, businessId, role: "owner" });
  await db.insert(demoLogins).values({ userId: created.userId, passwordEnc: encrypt(password) });
  return { email: created.email, password, created: true, changed: false };
}

/** The demo login as `npm start` printed it; throws before the first start created it. */
export async function readDemoLogin(db: Db): Promise<{ email: string; password: string; businessId: string }> {
  const [row] = await db
    .select({ email: users.email, passwordEnc: demoLogins.passwordEnc, businessId: memberships.businessId })
    .from(demoLogins)
    .innerJoin(users, eq(users.id, demoLogins.userId))
    .innerJoin(memberships, eq(memberships.userId, demoLogins.userId))
    .limit(1);
  if (!row) throw new StaffInputError("there is no demo login yet: npm start creates it on its first run");
  return { email: row.email, password: decrypt(row.passwordEnc), businessId: row.businessId };
}
