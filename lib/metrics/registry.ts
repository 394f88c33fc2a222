import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** The HTTP server's metrics (API requests, connections refused over MAX_CONNECTIONS). */
function httpMetrics(registers: Registry[]) {
  return {
    httpRequests: new Counter({
      name: "kassa_http_requests_total",
      help: "API requests answered, by route pattern (never the raw path), method and status.",
      labelNames: ["route", "method", "status"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "kassa_http_request_duration_seconds",
      help: "API request latency, by route pattern, method and status.",
      labelNames: ["route", "method", "status"] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    httpConnectionsRefused: new Counter({
      name: "kassa_http_connections_refused_total",
      help: "Connections closed as they arrived because the instance held MAX_CONNECTIONS already.",
      registers,
    }),
  };
}

/** Failures: e-mail sends, jobs, database errors, refused requests, provider requests; counters an alert can use. */
function failureMetrics(registers: Registry[]) {
  return {
    mailSendFailures: new Counter({
      name: "kassa_mail_send_failures_total",
      help: "E-mail sends the SMTP server did not take, by mail kind and outcome (retry: tried again later; failed: refused for good).",
      labelNames: ["kind", "outcome"] as const,
      registers,
    }),
    jobFailures: new Counter({
      name: "kassa_job_failures_total",
      help: "Background jobs that threw, by job kind and outcome (retry: run again later; failed: gave up).",
      labelNames: ["kind", "outcome"] as const,
      registers,
    }),
    databaseErrors: new Counter({
      name: "kassa_database_errors_total",
      help: "Database errors, by class (connection lost, timeout, read-only, disk full, ...); see countDatabaseError.",
      labelNames: ["kind"] as const,
      registers,
    }),
    requestsRejected: new Counter({
      name: "kassa_http_requests_rejected_total",
      help: "Requests refused rather than served, by status (408, 413, 429, 503, ...) and reason (the error code answered).",
      labelNames: ["status", "reason"] as const,
      registers,
    }),
    providerRequests: new Counter({
      name: "kassa_provider_requests_total",
      help: "HTTP requests the Stripe SDK sent (to Stripe or the emulator), by provider, operation (method and path pattern) and outcome.",
      labelNames: ["provider", "operation", "outcome"] as const,
      registers,
    }),
  };
}

/**
 * Every Prometheus metric of the process, in one registry. Created once and kept on globalThis:
 * Next's bundles carry their own copies of lib/ modules (and of prom-client), and a second set
 * would either fail on duplicate names or count apart from what GET /metrics shows.
 */
function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    ...httpMetrics(registers),
    ...failureMetrics(registers),
    webhookDeliveries: new Counter({
      name: "kassa_webhook_deliveries_total",
      help: "Webhook delivery attempts, by outcome (succeeded, http_error, network_error, refused).",
      labelNames: ["outcome"] as const,
      registers,
    }),
    webhookDuration: new Histogram({
      name: "kassa_webhook_delivery_duration_seconds",
      help: "Webhook delivery attempt latency (request sent to answer or error), by outcome.",
      labelNames: ["outcome"] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    providerDuration: new Histogram({
      name: "kassa_provider_call_duration_seconds",
      help: "Payment provider calls (adapter methods), by provider, operation and result (ok or error).",
      labelNames: ["provider", "operation", "result"] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    providerErrors: new Counter({
      name: "kassa_provider_call_errors_total",
      help: "Payment provider calls that threw (network, provider outage, unexpected answer), by provider and operation.",
      labelNames: ["provider", "operation"] as const,
      registers,
    }),
    outboxJobs: new Gauge({
      name: "kassa_outbox_jobs",
      help: "Outbox rows waiting (pending: due or scheduled) or running, by job kind; read from the database at each scrape.",
      labelNames: ["kind", "status"] as const,
      registers,
    }),
    outboxOldestDueAge: new Gauge({
      name: "kassa_outbox_oldest_due_age_seconds",
      help: "Seconds the oldest pending row that is due has waited past its run time, by job kind (0: nothing due).",
      labelNames: ["kind"] as const,
      registers,
    }),
    ledgerVerifyOk: new Gauge({
      name: "kassa_ledger_verify_ok",
      help: "1 when the last periodic ledger verification found no problem, 0 when it found some or failed to run.",
      registers,
    }),
    ledgerVerifyProblems: new Gauge({
      name: "kassa_ledger_verify_problems",
      help: "Problems the last periodic ledger verification listed.",
      registers,
    }),
    ledgerVerifyLastRun: new Gauge({
      name: "kassa_ledger_verify_last_run_timestamp_seconds",
      help: "Unix time the last periodic ledger verification finished.",
      registers,
    }),
    ledgerVerifyDuration: new Gauge({
      name: "kassa_ledger_verify_duration_seconds",
      help: "How long the last periodic ledger verification took.",
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const globalKey = Symbol.for("kassa.metrics");
const holder = globalThis as unknown as { [globalKey]?: Metrics };

export function metrics(): Metrics {
  return (holder[globalKey] ??= createMetrics());
}
