import type http from "node:http";
import { installedDatabase } from "@/lib/db";
import { env } from "@/lib/env";
import { log } from "@/lib/log";
import { refreshOutboxGauges } from "./outbox-metrics";
import { metrics } from "./registry";
import { scrapeAccess } from "./scrape-access";

/** The path on the origin (not under base_url: it is for operators, not merchants). */
export const metricsPath = "/metrics";

function answer(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: http.OutgoingHttpHeaders = {},
) {
  const text = JSON.stringify(body);
  res
    .writeHead(status, {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "content-length": Buffer.byteLength(text),
      ...headers,
    })
    .end(text);
}

/** GET /metrics in Prometheus's text format, for a scraper scrapeAccess lets in. */
export async function serveMetrics(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  if (req.method !== "GET" && req.method !== "HEAD") {
    answer(
      res,
      405,
      { error: "method_not_allowed", message: `${req.method} is not allowed here` },
      { allow: "GET, HEAD" },
    );
    return;
  }
  const access = scrapeAccess({ peer: req.socket.remoteAddress, headers: req.headers }, env().METRICS_TOKEN);
  if (!access.allowed) {
    const error = access.status === 401 ? "unauthorized" : "forbidden";
    answer(
      res,
      access.status,
      { error, message: access.message },
      access.status === 401 ? { "www-authenticate": "Bearer" } : {},
    );
    return;
  }
  const m = metrics();
  const installed = installedDatabase();
  try {
    if (installed) await refreshOutboxGauges((await installed).db);
  } catch (error) {
    // The rest is still worth reading; the outbox series go missing, which an absent() alert sees.
    m.outboxJobs.reset();
    m.outboxOldestDueAge.reset();
    log.warn("outbox metrics could not be read", { error });
  }
  try {
    const text = await m.registry.metrics();
    res.writeHead(200, { "content-type": m.registry.contentType, "cache-control": "no-store" });
    res.end(req.method === "HEAD" ? undefined : text);
  } catch (error) {
    log.error("metrics could not be rendered", { error });
    answer(res, 500, { error: "Internal server error" });
  }
}
