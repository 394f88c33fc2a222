import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "@/test/free-port";
import { afterAll, describe, expect, it } from "vitest";
import { compiledEntry } from "@/bin/compile.mjs";
import { buildState } from "./build";

// `npm start` on a fresh data directory creates the demo business and prints its keys, which then
// work against the API. It starts the real process (bin/start.mjs, as `npm start` does: the
// compiled server, compiled first if a source changed) on a temporary DATA_DIR and port. It needs a current production build (`next build`; CI has one
// from the first Playwright pass): without one, the process would build first, for minutes.
const root = path.resolve(import.meta.dirname, "..");
const ready = buildState(root).current;

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const child of children) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
    if (child.exitCode === null) child.kill("SIGKILL");
  }
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** Starts `npm start`'s process and resolves with what it printed once the banner is complete. */
async function start(): Promise<{ port: number; banner: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-start-"));
  dirs.push(dataDir);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1" };
  for (const name of ["DATABASE_URL", "KASSA_BUNDLE", "ORIGIN", "ENCRYPTION_KEY", "VITEST", "VITEST_WORKER_ID", "NODE_ENV"]) delete env[name];
  const child = spawn(process.execPath, ["bin/start.mjs"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let out = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
  const banner = await new Promise<string>((resolve, reject) => {
    const check = setInterval(() => {
      if (/read it back:\n.*\n/.test(out)) done(() => resolve(out));
    }, 100);
    const timer = setTimeout(() => done(() => reject(new Error(`no banner in time:\n${out}`))), 150_000);
    const onExit = (code: number | null) => done(() => reject(new Error(`exited ${code}:\n${out}`)));
    child.once("exit", onExit);
    function done(then: () => void) {
      clearInterval(check);
      clearTimeout(timer);
      child.off("exit", onExit);
      then();
    }
  });
  return { port, banner };
}

describe.skipIf(!ready)("npm start (needs a current production build)", () => {
  it("prints the demo business's keys, and they work against the API", async () => {
    const { port, banner } = await start();
    // It ran the compiled server (compiled now if it was not up to date), without tsx's loader.
    expect(JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).scripts.start).toBe("node bin/start.mjs");
    expect(compiledEntry("main")).toMatch(/\/dist\/server\/main\.mjs$/);
    const secret = /secret key\s+(sk_test_\S+)/.exec(banner)?.[1];
    const publicKey = /public key\s+(pk_test_\S+)/.exec(banner)?.[1];
    expect(secret, banner).toBeDefined();
    expect(publicKey, banner).toBeDefined();
    expect(banner).toContain(`http://localhost:${port}`);
    const base = `http://127.0.0.1:${port}/api`;
    const created = await fetch(`${base}/session`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify({
        amount: 2500,
        currency: "USD",
        customer: "cus_demo",
        order_id: `order-${Date.now()}`,
        items: [{ name: "T-shirt", quantity: 1, price: 2500 }],
      }),
    });
    expect(created.status).toBe(201);
    const { session_id } = (await created.json()) as { session_id: string };
    const read = await fetch(`${base}/payment/${session_id}`, { headers: { authorization: `Bearer ${secret}` } });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ session_id, amount: 2500, status: null });
    const methods = await fetch(`${base}/payments/methods`, { headers: { authorization: `Bearer ${publicKey}` } });
    expect(methods.status).toBe(200);
    // A key that was not printed gets the uniform 401.
    const wrong = await fetch(`${base}/balance`, { headers: { authorization: `Bearer ${secret}x` } });
    expect(wrong.status).toBe(401);
  }, 240_000);
});
