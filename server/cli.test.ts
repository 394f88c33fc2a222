import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { resetEnv } from "@/lib/env";
import { runCliCommand } from "./run-cli-command";

const run = promisify(execFile);
const bin = path.resolve(import.meta.dirname, "..", "bin", "kassa.mjs");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-cli-test-"));

/** Runs `npx kassa …` as a merchant's script would: its own process, the embedded database in DATA_DIR. */
async function kassa(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "error" };
  delete env.ALLOW_PRIVATE_WEBHOOK_URLS;
  delete env.DATABASE_URL; // the CLI's own embedded database, whatever the test run uses
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The same command in this process (server/cli.ts only prints this output): for tables of refusals. */
async function kassaHere(...args: string[]) {
  process.env.DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
  delete process.env.ALLOW_PRIVATE_WEBHOOK_URLS;
  resetEnv();
  const { stdout, stderr, exitCode } = await runCliCommand(args);
  return { code: exitCode, stdout, stderr };
}

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

// The CLI runs on its own embedded database whatever DATABASE_URL says, so the PostgreSQL pass
// would only run the same processes again.
const embeddedPass = !process.env.DATABASE_URL;

describe.runIf(embeddedPass)("npx kassa", () => {
  it("business create --json prints exactly the contract's object, and business list shows it", async () => {
    const created = await kassa(
      "business", "create", "--name", "Acme", "--mode", "live", "--webhook-url", "https://acme.test/hooks",
      "--events", "succeeded,refunded", "--payouts", "on", "--json",
    );
    expect(created.code).toBe(0);
    const out = JSON.parse(created.stdout) as Record<string, string>;
    expect(Object.keys(out).sort()).toEqual(["id", "mode", "public_key", "secret_key", "webhook_token"]);
    expect(out.id).toMatch(/^biz_/);
    expect(out.secret_key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/);
    expect(out.public_key).toMatch(/^pk_live_[0-9A-Za-z]{32}$/);
    expect(out.webhook_token).toMatch(/^whsec_/);
    expect(out.mode).toBe("live");

    const listed = await kassa("business", "list", "--json");
    expect(listed.code).toBe(0);
    const { data } = JSON.parse(listed.stdout) as { data: { id: string; name: string; mode: string; payouts: boolean }[] };
    expect(data).toContainEqual(expect.objectContaining({ id: out.id, name: "Acme", mode: "live", payouts: true }));
  }, 120_000);

  it("refuses bad options with a usage message and exit code 2, creating nothing", async () => {
    const missing = await kassa("business", "create", "--json");
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stdout)).toEqual({ error: expect.stringContaining("--name is required") });
    const badMode = await kassaHere("business", "create", "--name", "X", "--mode", "staging");
    expect(badMode.code).toBe(2);
    expect(badMode.stderr).toContain("--mode must be one of sandbox, live");
    const badEvent = await kassaHere("business", "create", "--name", "X", "--events", "succeeded,exploded");
    expect(badEvent.code).toBe(2);
    expect(badEvent.stderr).toContain("unknown event kinds: exploded");
    const loopback = await kassaHere("business", "create", "--name", "X", "--webhook-url", "http://127.0.0.1:9/hooks");
    expect(loopback.code).toBe(2);
    expect(loopback.stderr).toContain("must reach a public address");
    const unknown = await kassaHere("frobnicate");
    expect(unknown.code).toBe(2);
    const listed = JSON.parse((await kassa("business", "list", "--json")).stdout) as { data: { name: string }[] };
    expect(listed.data.map((b) => b.name)).not.toContain("X");
  }, 120_000);

  it("ledger verify reports a clean ledger with exit code 0", async () => {
    const verified = await kassa("ledger", "verify", "--json");
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, problems: [] });
  }, 120_000);
});

describe.runIf(embeddedPass)("npx kassa and DATA_DIR's lock", () => {
  it("is not blocked by what a killed server left behind", async () => {
    const dead = await run(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
    const socket = path.join(dataDir, "run", "kassa.sock");
    fs.mkdirSync(path.dirname(socket), { recursive: true });
    fs.writeFileSync(socket, "");
    fs.writeFileSync(path.join(dataDir, "pglite.lock"), JSON.stringify({ pid: Number(dead.stdout), role: "server", socket }));
    const listed = await kassa("business", "list", "--json");
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({ data: expect.any(Array) });
    expect(fs.existsSync(path.join(dataDir, "pglite.lock"))).toBe(false);
  }, 120_000);
});
