import { afterAll, describe, expect, it } from "vitest";
import type { PGlite } from "@electric-sql/pglite";
import { openPglite, pgliteSharedBuffers } from "./pglite-open";

describe("openPglite", () => {
  let pglite: PGlite | undefined;
  afterAll(() => pglite?.close());

  it("starts Postgres with small shared buffers, in UTC, with pg_trgm at hand", async () => {
    pglite = await openPglite({});
    const shown = await pglite.query<{ shared_buffers: string }>("SHOW shared_buffers");
    expect(shown.rows[0]!.shared_buffers).toBe(pgliteSharedBuffers);
    const zone = await pglite.query<{ TimeZone: string }>("SHOW TIME ZONE");
    expect(zone.rows[0]!.TimeZone).toBe("UTC");
    await pglite.exec("CREATE EXTENSION IF NOT EXISTS pg_trgm");
    const similar = await pglite.query<{ s: number }>("SELECT similarity('kassa', 'kasse') AS s");
    expect(similar.rows[0]!.s).toBeGreaterThan(0);
  }, 60_000);
});
