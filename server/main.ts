// Kassa's process: database (embedded PGlite by default), demo business, Next.js app.
import path from "node:path";
import { fileURLToPath } from "node:url";
import next from "next";
import type { Db } from "@/db/client";
import { ensureDemoBusiness } from "@/lib/businesses/demo-business";
import { ensureDemoLogin } from "@/lib/staff/demo-login";
import { installDatabase } from "@/lib/db";
import { stopInstanceHeartbeat } from "@/lib/instances/instance-heartbeat";
import { baseUrl, checkoutUrl, env, origin } from "@/lib/env";
import { setReady } from "@/lib/health/readiness";
import { registerApiRouter } from "@/lib/api/register-router";
import { registerAllJobHandlers } from "@/lib/job-handlers";
import { log } from "@/lib/log";
import { startLedgerVerification } from "@/lib/ledger/ledger-verification-schedule";
import { startSandboxProviders } from "@/lib/providers/start-sandbox-providers";
import { reconcileAfterRestart } from "@/lib/payments/reconcile-after-restart";
import { connectSandboxStripe } from "@/lib/providers/stripe/connect-sandbox-stripe";
import { diskBelowFloor } from "@/lib/health/disk-space";
import { startEmbeddedWorker } from "@/lib/worker/embedded-worker";
import { buildIfNeeded } from "./build";
import { openServerDatabase, runningServer } from "./embedded";
import { apiFastPath } from "./api-fast-path";
import { createHttpServer, stopServing } from "./http-server";
import { takeBuiltNextConfig } from "./next-config-at-start";
import { pageHandler } from "./page-handler";
import { startTracing } from "./tracing";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function main() {
  const dev = process.argv.includes("--dev");
  const e = env();
  if (!e.DATABASE_URL && (await runningServer())) {
    console.error(`Kassa is already running on this data directory (${path.resolve(e.DATA_DIR)}).`);
    process.exit(1);
  }
  if (!dev) {
    buildIfNeeded(root);
    takeBuiltNextConfig(root);
  }
  // OTLP traces when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/operations.md#traces); else nothing.
  const stopTracing = startTracing();

  // With PGlite: DATA_DIR locked, and CLI commands run here (decision 0007).
  const { handle, stopSharing } = await openServerDatabase();
  installDatabase(handle);
  const demo = await ensureDemoBusiness(handle.db);
  const demoLogin = await ensureDemoLogin(handle.db, demo.business.id);
  // Background work (webhook deliveries, expiries, provider events); stays off when Inngest is configured.
  registerAllJobHandlers();
  // The sandbox provider sends its webhooks through the API router.
  registerApiRouter();
  // Under the embedded database's disk floor, jobs wait as requests' writes do (decision 0067).
  const worker = startEmbeddedWorker(handle.db, handle.kind === "pglite" ? { pauseWhen: diskBelowFloor } : {});
  // The kassa_ledger_verify_* gauges (docs/operations.md), every LEDGER_VERIFY_INTERVAL_MINUTES.
  const stopLedgerVerification = startLedgerVerification(handle.db);
  // The Stripe emulator sandbox businesses pay through (each business its own account).
  const sandbox = await startSandboxProviders();
  // Other sandbox businesses connect on first use; the demo now, so it sells plans at once.
  await connectSandboxStripe(handle.db, demo.business);

  const app = next({ dev, dir: root, hostname: "localhost", port: e.PORT });
  await app.prepare();
  // Compressed by the server; the checkout's scripts requested once it is shown (./page-handler.ts).
  const handleRequest = pageHandler(app.getRequestHandler());
  // The JSON API is answered before Next's pipeline, by the same router (decision 0030); under
  // `npm run dev` Next's route serves it, so edits to lib/ reload without a restart.
  const api = dev ? undefined : apiFastPath({ port: e.PORT });
  const { server, serving } = createHttpServer(handleRequest, api);
  await new Promise<void>((resolve) => server.listen(e.PORT, e.HOST, resolve));
  setReady(true);
  // On the embedded database every earlier process is dead: what they left open is settled now.
  const settling = handle.kind === "pglite" ? settleAfterRestart(handle.db) : Promise.resolve();

  const curl = [
    `curl -s -X POST ${baseUrl()}/session \\`,
    `  -H "Authorization: Bearer ${demo.secretKey}" -H "Content-Type: application/json" \\`,
    `  -d '{"amount":2500,"currency":"USD","customer":"cus_demo","order_id":"order-'$(date +%s)'","items":[{"name":"T-shirt","quantity":1,"price":2500}]}'`,
  ].join("\n");
  console.log(
    [
      ``,
      `Kassa is running at ${origin()}  (${handle.kind === "pglite" ? `embedded database in ${path.resolve(e.DATA_DIR)}` : "PostgreSQL"})`,
      ``,
      `Demo business "${demo.business.name}" (${demo.business.id}, sandbox)${demo.created ? " created" : ""}:`,
      `  secret key  ${demo.secretKey}`,
      `  public key  ${demo.publicKey}`,
      ``,
      `Dashboard: ${origin()}/dashboard  (demo login${demoLogin.created ? " created" : ""})`,
      `  e-mail    ${demoLogin.email}`,
      demoLogin.changed
        ? `  password  (changed since it was generated: sign in with the new one)`
        : `  password  ${demoLogin.password}`,
      ``,
      `Create a session:`,
      curl,
      ``,
      `Then open ${checkoutUrl()}/<session_id>, or read it back:`,
      `curl -s ${baseUrl()}/payment/<session_id> -H "Authorization: Bearer ${demo.secretKey}"`,
      ``,
    ].join("\n"),
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // The database closes only after every request that started and every job that runs is done
    // (or, past their bounds, cut or released).
    await Promise.all([stopServing(serving, signal), worker.stop(), stopLedgerVerification()]);
    await sandbox.stop();
    // This process is gone at once for the reconciler: an attempt a request cut at the drain left
    // open is settled at the next pass, without waiting for the heartbeat timeout.
    await stopInstanceHeartbeat(handle.db).catch((error: unknown) =>
      log.warn("instance deregistration failed", { error }),
    );
    await settling;
    await stopSharing();
    await handle.close();
    await stopTracing();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

async function settleAfterRestart(db: Db): Promise<void> {
  try {
    const result = await reconcileAfterRestart(db);
    if (result.checked) log.info("payment attempts left open before the restart reconciled", { ...result });
  } catch (error) {
    log.warn("reconciliation at start failed (the next pass tries again)", { error });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
