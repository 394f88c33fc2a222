import type { DatabaseHandle } from "@/db/client";
import { getDatabase, installedDatabase } from "@/lib/db";
import { readinessReport } from "@/lib/health/readiness-checks";
import type { ApiHandler } from "@/lib/api/handler";
import { json } from "@/lib/http/respond";

/** GET /health/live: the process answers. Touches nothing else (a busy database must not get it restarted). */
export const getLiveness: ApiHandler = async () => json(200, { status: "ok" });

/** The handle the server installed; opened here only when nothing did (a bare `next dev`). */
async function database(): Promise<DatabaseHandle | null> {
  try {
    const installed = installedDatabase();
    return installed ? await installed : await getDatabase();
  } catch {
    return null;
  }
}

/**
 * GET /health/ready: 200 when this process should get traffic (listening and not shutting down,
 * database reachable and writable, the embedded database's disk over its floor, every migration
 * applied, background work running), otherwise 503; the body lists each check either way (the
 * database's for 1.5 s, so that probes stay cheap).
 */
export const getReadiness: ApiHandler = async () => {
  const report = await readinessReport(await database());
  return json(report.ready ? 200 : 503, { status: report.ready ? "ready" : "not_ready", checks: report.checks });
};
