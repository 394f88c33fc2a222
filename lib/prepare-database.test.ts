import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { migrationsFolder, openDatabase, queryRows, sql } from "@/db/client";
import { catalogue } from "@/lib/payments/catalogue";
import { prepareDatabase } from "@/lib/prepare-database";
import { withDatabase } from "@/test/database";

const serverUrl = process.env.DATABASE_URL;
const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
  entries: unknown[];
};

describe.runIf(serverUrl)("prepareDatabase on PostgreSQL", () => {
  it("lets several instances start on one empty database at once: one migrates, the others wait and find it done", async () => {
    const name = `kassa_prepare_${process.pid}_${Date.now()}`;
    const admin = postgres(serverUrl!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE "${name}"`);
    const url = withDatabase(serverUrl!, name);
    const handles = await Promise.all([1, 2, 3, 4].map(() => openDatabase({ kind: "postgres", url, max: 3 })));
    try {
      const outcomes = await Promise.allSettled(handles.map((handle) => prepareDatabase(handle)));
      expect(outcomes.map((o) => (o.status === "rejected" ? String(o.reason) : "ok"))).toEqual(["ok", "ok", "ok", "ok"]);
      const [applied] = await queryRows<{ count: number }>(
        handles[0]!.db,
        sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
      );
      expect(applied?.count).toBe(journal.entries.length);
      const [methods] = await queryRows<{ count: number }>(
        handles[0]!.db,
        sql`select count(*)::int as count from payment_methods`,
      );
      expect(methods?.count).toBe(catalogue.length);
      // The lock is released: a later start prepares at once.
      await prepareDatabase(handles[0]!);
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
      await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    }
  });
});
