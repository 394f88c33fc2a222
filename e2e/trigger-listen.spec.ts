import { execFile, spawn, type ChildProcess } from "node:child_process";
import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Webhook } from "standardwebhooks";
import { expect, expectAccessible, kassa, test, type Business } from "./fixtures";

// `npx kassa trigger` through the running server (its command socket, or the same database with
// DATABASE_URL), and `npx kassa listen` forwarding to a "laptop" endpoint; the attempts of both
// in the dashboard's delivery log.
const kassaBin = fileURLToPath(new URL("../bin/kassa.mjs", import.meta.url));
const port = process.env.E2E_PORT ?? "3210";
const cliEnv = { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? ".data-e2e", PORT: port };
const run = promisify(execFile);

type Received = { type: string; verified: boolean };

/** An endpoint on this machine that checks both signatures with the business's token. */
async function endpoint(token: string) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let verified = req.headers.signature === createHmac("sha256", token).update(body).digest("hex");
      try {
        new Webhook(token).verify(body, {
          "webhook-id": String(req.headers["webhook-id"]),
          "webhook-timestamp": String(req.headers["webhook-timestamp"]),
          "webhook-signature": String(req.headers["webhook-signature"]),
        });
      } catch {
        verified = false;
      }
      received.push({ type: (JSON.parse(body) as { type: string }).type, verified });
      res.writeHead(verified ? 200 : 401).end(verified ? "ok" : "bad signature");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** `npx kassa trigger <kind>` in a process of its own (this one keeps answering the endpoint meanwhile). */
async function trigger(kind: string, business: Business) {
  const { stdout } = await run(process.execPath, [kassaBin, "trigger", kind, "--business", business.id, "--json"], {
    env: cliEnv,
    timeout: 120_000,
  }).catch((error: { stdout?: string; stderr?: string; code?: number }) => {
    throw new Error(`npx kassa trigger ${kind} failed (exit ${error.code}): ${error.stderr ?? ""}${error.stdout ?? ""}`);
  });
  return JSON.parse(stdout.trim().split("\n").pop()!) as { kind: string; event: { id: string; type: string } };
}

test("kassa trigger sends a real signed event; kassa listen forwards the next ones to a laptop", async ({ page, business }) => {
  test.setTimeout(240_000);
  const auth = { authorization: `Bearer ${business.secret_key}` };
  const production = await endpoint(business.webhook_token);
  const laptop = await endpoint(business.webhook_token);
  let listener: ChildProcess | undefined;
  try {
    const set = await page.request.post("/api/webhooks/endpoint", { headers: auth, data: { url: production.url, events: ["succeeded", "refunded"] } });
    expect(set.status(), await set.text()).toBe(200);

    const paid = await trigger("succeeded", business);
    expect(paid.event.type).toBe("succeeded");
    await expect.poll(() => production.received.map((r) => r.type), { timeout: 60_000 }).toContain("succeeded");
    expect(production.received.every((r) => r.verified)).toBe(true);

    let output = "";
    listener = spawn(
      process.execPath,
      [kassaBin, "listen", "--forward-to", laptop.url, "--api-base", `http://localhost:${port}/api`, "--key", business.secret_key],
      { env: cliEnv },
    );
    listener.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    // listen forwards what happens once it runs: test events until its first poll has begun.
    await expect(async () => {
      const sent = await page.request.post("/api/webhooks/test", { headers: auth, data: {} });
      expect(sent.status()).toBe(201);
      expect(laptop.received.length).toBeGreaterThan(0);
    }).toPass({ timeout: 60_000, intervals: [1_000, 2_000] });

    const refunded = await trigger("refunded", business);
    await expect.poll(() => laptop.received.map((r) => r.type), { timeout: 60_000 }).toContain("refunded");
    expect(laptop.received.every((r) => r.verified)).toBe(true);
    await expect.poll(() => output, { timeout: 30_000 }).toContain(refunded.event.id);

    // The laptop's answer is an attempt of its own in the delivery log, apart from the delivery's.
    await expect.poll(() => production.received.filter((r) => r.type === "refunded").length, { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
    const login = { email: `owner-${business.id.toLowerCase()}@example.com`, password: "correct horse battery staple 42" };
    kassa(["user", "create", "--email", login.email, "--password", login.password, "--business", business.id, "--role", "owner"]);
    await page.goto("/dashboard/webhooks");
    await page.getByLabel("E-mail").fill(login.email);
    await page.getByLabel("Password").fill(login.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Webhooks" })).toBeVisible({ timeout: 30_000 });
    const event = page.getByRole("list", { name: "Webhook events" }).getByRole("listitem").filter({ hasText: refunded.event.id });
    await event.locator("summary").first().click();
    await expect(event.getByText("kassa listen 1")).toBeVisible();
    await expect(event.getByText("Attempt 1 (round 1)")).toBeVisible();
    await expectAccessible(page);
  } finally {
    listener?.kill("SIGINT");
    await production.close();
    await laptop.close();
  }
});
