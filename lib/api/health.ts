import type { Db } from "@/db/client";
import { getDb, installedDatabase } from "@/lib/db";
import { readinessReport } from "@/lib/health/readiness-checks";
import type { ApiHandler } from "@/lib/http/handler";
import { json } from "@/lib/http/respond";

/** GET /health/live: the process answers. Touches nothing else (a busy database must not get it restarted). */
export const getLiveness: ApiHandler = async () => json(200, { status: "ok" });

/** The handle the server installed; opened here only when nothing did (a bare `next dev`). */
async function database(): Promise<Db | null> {
  try {
    const installed = installedDatabase();
    return installed ? (await installed).db : await getDb();
  } catch {
    return null;
  }
}

/**
 * GET /health/ready: 200 when this process should get traffic (listening and not shutting down,
 * database reachable, every migration applied, background work running), otherwise 503; the body
 * lists each check either way.
 */
export const getReadiness: ApiHandler = async () => {
  const report = await readinessReport(await database());
  return json(report.ready ? 200 : 503, { status: report.ready ? "ready" : "not_ready", checks: report.checks });
};
