import path from "node:path";
import { z } from "zod";
import type { OpenOptions } from "@/db/client";

const booleanFlag = z
  .enum(["1", "0", "true", "false", ""])
  .optional()
  .transform((v) => v === "1" || v === "true");

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z.string().min(1).optional(),
  /**
   * PostgreSQL's bound on one statement of the server's pool (statement_timeout, decision 0065): a
   * statement past it fails and its request answers 503. Migrations run without it.
   */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /**
   * The embedded database's disk floor (decision 0067): with less free space than this on the
   * data directory's file system, readiness fails and requests that change anything answer 503
   * `insufficient_storage` (reads are still served).
   */
  DISK_FREE_FLOOR_MB: z.coerce.number().min(0).max(1_000_000).default(256),
  DATA_DIR: z.string().min(1).default(".data"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  /** Public origin, e.g. https://pay.example.com; defaults to http://localhost:PORT. */
  ORIGIN: z.url().optional(),
  API_BASE_URL: z.url().optional(),
  CHECKOUT_URL: z.url().optional(),
  /** 32 bytes, base64 or hex; without it a key file is created in DATA_DIR. */
  ENCRYPTION_KEY: z.string().min(1).optional(),
  /** Trust X-Forwarded-For (only behind a proxy that sets it). */
  TRUST_PROXY: booleanFlag,
  /** Session creations allowed per window, per client IP (public key) and per secret key. */
  RATE_LIMIT_SESSION_PUBLIC: z.coerce.number().int().min(1).default(60),
  RATE_LIMIT_SESSION_SECRET: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(60),
  /** Failed staff sign-ins allowed per window, per e-mail and per client IP (decision 0018). */
  RATE_LIMIT_LOGIN_EMAIL: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_LOGIN_IP: z.coerce.number().int().min(1).default(100),
  RATE_LIMIT_LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  /**
   * Service support (admins) must use two-factor sign-in (decision 0048); `optional` only for test
   * set-ups that sign support in without an authenticator (the e2e suite).
   */
  ADMIN_TWO_FACTOR: z.enum(["required", "optional"]).default("required"),
  /** Auth.js's signing secret; derived from the encryption key when unset (lib/staff/auth-secret.ts). */
  AUTH_SECRET: z.string().min(32).optional(),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /** Lets webhooks reach loopback and private addresses (development, tests, the demo). */
  ALLOW_PRIVATE_WEBHOOK_URLS: booleanFlag,
  /** Delays before each of the 4 webhook attempts, in seconds (decimals allowed). */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default("0,60,600,3600")
    .transform((v) => v.split(",").map((s) => Number(s.trim())))
    .pipe(z.array(z.number().finite().min(0).max(86_400)).length(4)),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /**
   * Endpoint health (decision 0050): an endpoint that failed every attempt for this many hours
   * (on the business's clock) and at least WEBHOOK_DISABLE_AFTER_EVENTS events is disabled.
   */
  WEBHOOK_DISABLE_AFTER_HOURS: z.coerce.number().min(1).max(8760).default(72),
  WEBHOOK_DISABLE_AFTER_EVENTS: z.coerce.number().int().min(1).max(1_000_000).default(20),
  /** Held events resent after re-enabling go out one per this many milliseconds, oldest first. */
  WEBHOOK_HELD_RESEND_SPACING_MS: z.coerce.number().int().min(0).max(3_600_000).default(1000),
  /** Embedded worker: jobs run at once, idle poll interval, and lease of a claimed job. */
  JOBS_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(8),
  JOBS_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(250),
  JOBS_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
  /** Embedded worker: webhook attempts in flight at once, besides the JOBS_CONCURRENCY other jobs. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(32),
  /**
   * Housekeeping (lib/housekeeping): idempotency keys are replayed for at least 24 h (as Stripe),
   * finished outbox rows are kept a week, expired rate-limit counters an hour. The embedded worker
   * prunes every HOUSEKEEPING_INTERVAL_MINUTES; under Inngest an hourly cron does.
   */
  IDEMPOTENCY_KEY_RETENTION_HOURS: z.coerce.number().min(24).max(8760).default(24),
  FINISHED_JOB_RETENTION_HOURS: z.coerce.number().min(0).max(87_600).default(168),
  RATE_LIMIT_RETENTION_HOURS: z.coerce.number().min(0).max(8760).default(1),
  HOUSEKEEPING_INTERVAL_MINUTES: z.coerce.number().min(1).max(1440).default(60),
  /**
   * Tests only: live businesses' Stripe calls go to this API (e.g. the Stripe emulator,
   * http://127.0.0.1:12111) instead of api.stripe.com when Stripe is connected.
   */
  STRIPE_API_BASE: z.url().optional(),
  /** Inngest (optional executor): with these set the app sends events and the embedded worker stays off. */
  INNGEST_EVENT_KEY: z.string().min(1).optional(),
  INNGEST_SIGNING_KEY: z.string().min(1).optional(),
  INNGEST_DEV: z.string().min(1).optional(),
  /**
   * Reconciliation (docs/payments.md, decision 0025): every process renews its `instances` row every
   * INSTANCE_HEARTBEAT_SECONDS; one silent for INSTANCE_TIMEOUT_SECONDS is gone, and the payment
   * attempts it left open are settled from the provider at the next pass (every
   * RECONCILE_INTERVAL_SECONDS: the embedded worker's tick, or the Inngest cron). An attempt open
   * longer than RECONCILE_GRACE_SECONDS is reconciled even when its process still looks alive.
   */
  INSTANCE_HEARTBEAT_SECONDS: z.coerce.number().min(0.05).max(300).default(10),
  INSTANCE_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(3600).default(60),
  RECONCILE_INTERVAL_SECONDS: z.coerce.number().min(0.05).max(3600).default(30),
  RECONCILE_GRACE_SECONDS: z.coerce.number().min(0).max(86_400).default(600),
  /**
   * A card attempt waiting for the payer's 3-D Secure authentication this long is closed by the
   * reconciliation pass (failed `authentication_abandoned`, the intent canceled). One hour: a real
   * challenge takes minutes, an hour spares a slow payer, and the session stays payable.
   */
  AUTHENTICATION_TIMEOUT_MINUTES: z.coerce.number().min(1).max(1440).default(60),
  /**
   * Operations (docs/operations.md): GET /metrics needs this as a Bearer token; without it only
   * loopback clients not behind a proxy may scrape. The ledger is verified every
   * LEDGER_VERIFY_INTERVAL_MINUTES for the kassa_ledger_verify_* gauges (0: never): what changed
   * since its checkpoint, and the whole ledger once every LEDGER_FULL_VERIFY_HOURS (decision 0079).
   */
  METRICS_TOKEN: z.string().min(16).optional(),
  LEDGER_VERIFY_INTERVAL_MINUTES: z.coerce.number().min(0).max(10_080).default(15),
  LEDGER_FULL_VERIFY_HOURS: z.coerce.number().min(1).max(8_760).default(24),
  /**
   * A request body not received in full this long after its headers is cut: 408, connection closed
   * (server/body-limit.ts). Bodies over their route's size limit are cut at once (413).
   */
  REQUEST_BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  /**
   * Slow clients (server/http-server.ts): a request whose line and headers have not all arrived
   * this long after its connection opened (on a kept-alive connection: after its first byte; an
   * idle one is closed after 65 s) is cut: 408, connection closed. Node's own default is 60 s,
   * checked every 30 s.
   */
  REQUEST_HEADERS_TIMEOUT_SECONDS: z.coerce.number().min(1).max(300).default(10),
  /**
   * Open connections one instance accepts at once (Node's `server.maxConnections`); a connection
   * over the cap is closed as it arrives, before anything is read (a reverse proxy retries another
   * instance). Counted in `kassa_http_connections_refused_total`.
   */
  MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  /**
   * On SIGTERM, readiness reports 503 and requests are still served this long before the listener
   * closes, so a load balancer stops sending first (docs/deploy.md); then requests under way finish.
   */
  SHUTDOWN_DELAY_SECONDS: z.coerce.number().min(0).max(300).default(5),
  /**
   * E-mail (lib/mail, decision 0044): the SMTP server, e.g. smtps://user:pass@smtp.example.com:465
   * or smtp://127.0.0.1:2525; without it messages are kept for the mailbox page (/admin/mailbox).
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, { error: "must be an smtp:// or smtps:// URL" })
    .optional(),
  /** The From of every message, e.g. `Kassa <no-reply@pay.example.com>`; default no-reply@ORIGIN's host. */
  MAIL_FROM: z.string().min(3).optional(),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

/** The validated environment, read once; tests that change process.env call resetEnv(). */
export function env(): Env {
  if (cached) return cached;
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid environment: ${problems}`);
  }
  cached = parsed.data;
  return cached;
}

export function resetEnv(): void {
  cached = undefined;
}

export function dataDir(): string {
  return path.resolve(env().DATA_DIR);
}

export function databaseOptions(): OpenOptions {
  const e = env();
  if (e.DATABASE_URL)
    return { kind: "postgres", url: e.DATABASE_URL, statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS };
  return { kind: "pglite", dataDir: path.join(dataDir(), "pglite") };
}

export function origin(): string {
  const e = env();
  return (e.ORIGIN ?? `http://localhost:${e.PORT}`).replace(/\/$/, "");
}

export function baseUrl(): string {
  return (env().API_BASE_URL ?? `${origin()}/api`).replace(/\/$/, "");
}

export function checkoutUrl(): string {
  return (env().CHECKOUT_URL ?? `${origin()}/checkout`).replace(/\/$/, "");
}

/** Inngest runs the jobs when it is configured: a dev server (INNGEST_DEV) or cloud keys. */
export function inngestEnabled(): boolean {
  const e = env();
  return Boolean(e.INNGEST_DEV) || Boolean(e.INNGEST_EVENT_KEY && e.INNGEST_SIGNING_KEY);
}
