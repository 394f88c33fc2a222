import fs from "node:fs";
import { defineConfig, devices } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3210);
const dataDir = process.env.E2E_DATA_DIR ?? ".data-e2e";
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// Fixed so that a reused PostgreSQL database (DATABASE_URL) stays readable across runs, and shared
// with the tests' own `npx kassa` commands: with DATABASE_URL they open the database themselves
// (not through the server) and must decrypt what the server wrote (e.g. the demo login).
process.env.ENCRYPTION_KEY ??= "e2e0".repeat(16);
// The Stripe emulator, a second web server: live businesses that a spec connects with
// `npx kassa stripe connect` (e2e/live-checkout-stripe-js.spec.ts) reach it through
// STRIPE_API_BASE, which the server and the tests' own `npx kassa` commands share (a command runs
// in the server with the embedded database, here with DATABASE_URL). It only lifts the live-key rule
// of connecting (a live business takes sk_test_ keys of the emulator) and changes nothing else.
// Its port: E2E_STRIPE_PORT, else the server's plus 1000.
const stripePort = Number(process.env.E2E_STRIPE_PORT ?? port + 1000);
process.env.STRIPE_API_BASE = `http://127.0.0.1:${stripePort}`;

export default defineConfig({
  testDir: "e2e",
  // Files run two at a time against the one server (each test makes its own business); a file's
  // tests stay in order. E2E_WORKERS=1 runs them one by one.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  // Generous bounds: on a 2-core CI machine two browsers, the server and its database share the
  // cores, and an accessibility scan (axe) alone can take 15 s on the phone project. These bound
  // hangs, not speed (`npm run bench` measures that).
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? "list" : [["list"]],
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: fs.existsSync(chromium) ? chromium : undefined,
      args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-gpu"],
    },
  },
  projects: [
    // On a phone: the pages customers and merchants' staff open there (checkout, payment, plans,
    // management link, branding, Kassa.js, sign-in, the dashboard's overview and every section of it
    // at 375 px, the API reference).
    // Staff-only tools (admin, subscription operations), and specs that drive requests or server
    // processes rather than pages, run on the desktop project only.
    {
      name: "mobile",
      use: { ...devices["Pixel 7"], browserName: "chromium" },
      testMatch: /\/(checkout|live-checkout-stripe-js|pay|subscribe|manage|branding|sdk|sign-in|dashboard|dashboard-phone|dashboard-analytics|api-reference|recovery)\.spec\.ts$/,
    },
    // dashboard-phone.spec.ts sets its own 375 px phone: the mobile project runs it once.
    { name: "desktop", use: { ...devices["Desktop Chrome"] }, testIgnore: /\/dashboard-phone\.spec\.ts$/ },
  ],
  webServer: [
    {
      command: `node packages/stripe-emulator/bin/stripe-emulator.mjs --port ${stripePort}`,
      // 401 without a key: it answers.
      url: `${process.env.STRIPE_API_BASE}/v1/account`,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: "ignore",
    },
    {
      // A fresh embedded database every run; DATABASE_URL, when set, is used instead.
      command: `rm -rf ${dataDir} && npm start`,
      url: `http://localhost:${port}/api/balance`,
      reuseExistingServer: false,
      timeout: 300_000,
      stdout: "pipe",
      env: {
        PORT: String(port),
        DATA_DIR: dataDir,
        ENCRYPTION_KEY: process.env.ENCRYPTION_KEY,
        ALLOW_PRIVATE_WEBHOOK_URLS: "1",
        NEXT_TELEMETRY_DISABLED: "1",
        // Playwright stops the server at the end: no load balancer to wait for.
        SHUTDOWN_DELAY_SECONDS: "0",
        STRIPE_API_BASE: process.env.STRIPE_API_BASE,
        // The specs sign service support in with a password alone (two-factor: e2e/two-factor.spec.ts).
        ADMIN_TWO_FACTOR: "optional",
      },
    },
  ],
});
