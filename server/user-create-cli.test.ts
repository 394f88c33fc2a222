import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { resetEnv } from "@/lib/env";
import { runCliCommand } from "./run-cli-command";
import { migratedDataDir } from "@/test/migrated-data-dir";

const run = promisify(execFile);
const bin = path.resolve(import.meta.dirname, "..", "bin", "kassa.mjs");
const dataDir = migratedDataDir(fs.mkdtempSync(path.join(os.tmpdir(), "kassa-user-cli-test-")));

/** Runs `npx kassa …` in its own process on its own embedded database, as server/cli.test.ts does. */
async function kassa(...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "error" };
  delete env.DATABASE_URL;
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { env, timeout: 60_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/**
 * The same command run in this process, as its own process would run it (server/cli.ts only
 * prints this output and exits with its code): for tables of refusals, without a process's start each.
 */
async function kassaHere(...args: string[]) {
  process.env.DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
  resetEnv();
  const { stdout, stderr, exitCode } = await runCliCommand(args);
  return { code: exitCode, stdout, stderr };
}

/** A business to add users to, made in this process: `business create` has its own process in server/cli.test.ts. */
async function business(name: string): Promise<string> {
  const created = await kassaHere("business", "create", "--name", name, "--json");
  expect(created.code, created.stderr).toBe(0);
  return (JSON.parse(created.stdout) as { id: string }).id;
}

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

// The CLI runs on its own embedded database whatever DATABASE_URL says: the PostgreSQL pass would
// only run the same processes again.
describe.skipIf(!!process.env.DATABASE_URL)("npx kassa user create", () => {
  it("creates a user with a membership, then adds another business to the same user (any e-mail case)", async () => {
    const [first, second] = [await business("Users One"), await business("Users Two")];
    const created = await kassa(
      "user",
      "create",
      "--email",
      "Ada@Example.com",
      "--password",
      "a long password",
      "--business",
      first,
      "--json",
    );
    expect(created.code, created.stderr).toBe(0);
    const out = JSON.parse(created.stdout) as Record<string, unknown>;
    expect(out).toEqual({
      id: expect.stringMatching(/^usr_/),
      email: "ada@example.com",
      business_id: first,
      role: "owner",
      admin: false,
      user_created: true,
      membership: "created",
    });

    const added = await kassa(
      "user",
      "create",
      "--email",
      "ADA@example.com",
      "--password",
      "a long password",
      "--business",
      second,
      "--role",
      "manager",
      "--json",
    );
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toEqual({
      ...out,
      business_id: second,
      role: "manager",
      user_created: false,
      membership: "created",
    });

    const again = await kassa(
      "user",
      "create",
      "--email",
      "ada@example.com",
      "--password",
      "a long password",
      "--business",
      second,
      "--role",
      "manager",
      "--json",
    );
    expect(JSON.parse(again.stdout)).toMatchObject({ user_created: false, membership: "unchanged" });
    const promoted = await kassa(
      "user",
      "create",
      "--email",
      "ada@example.com",
      "--password",
      "a long password",
      "--business",
      second,
      "--role",
      "owner",
    );
    expect(promoted.code).toBe(0);
    expect(promoted.stdout).toContain("password unchanged");
    expect(promoted.stdout).toContain(`role in ${second} changed to owner`);
  }, 180_000);

  it("never changes an existing user's password: another password is refused and nothing changes", async () => {
    const biz = await business("Users Three");
    await kassa(
      "user",
      "create",
      "--email",
      "bob@example.com",
      "--password",
      "bobs password",
      "--business",
      biz,
      "--json",
    );
    const other = await business("Users Four");
    const refused = await kassa(
      "user",
      "create",
      "--email",
      "bob@example.com",
      "--password",
      "another password",
      "--business",
      other,
      "--json",
    );
    expect(refused.code).toBe(1);
    expect((JSON.parse(refused.stdout) as { error: string }).error).toContain(
      "does not match their password; nothing was changed",
    );
    // Still a member of the first business only, with the first password.
    const check = await kassa(
      "user",
      "create",
      "--email",
      "bob@example.com",
      "--password",
      "bobs password",
      "--business",
      biz,
      "--json",
    );
    expect(JSON.parse(check.stdout)).toMatchObject({ user_created: false, membership: "unchanged" });
  }, 180_000);

  it("makes service support with --role admin, with or without --business", async () => {
    const admin = await kassa(
      "user",
      "create",
      "--email",
      "support@example.com",
      "--password",
      "support password",
      "--role",
      "admin",
      "--json",
    );
    expect(admin.code, admin.stderr).toBe(0);
    expect(JSON.parse(admin.stdout)).toMatchObject({
      role: "admin",
      admin: true,
      business_id: null,
      membership: "none",
      user_created: true,
    });
  }, 120_000);

  it("refuses bad input with a usage message and exit code 2, creating nothing", async () => {
    const biz = await business("Users Five");
    const cases: [string[], string][] = [
      [["--password", "a long password", "--business", biz], "--email is required"],
      [["--email", "x@example.com", "--business", biz], "--password is required"],
      [["--email", "x@example.com", "--password", "a long password"], "--business is required"],
      [
        ["--email", "not-an-email", "--password", "a long password", "--business", biz],
        "--email must be an e-mail address",
      ],
      [
        ["--email", "x@example.com", "--password", "short", "--business", biz],
        "--password must be at least 10 characters",
      ],
      [
        ["--email", "x@example.com", "--password", "a long password", "--business", "biz_nope"],
        "no business biz_nope",
      ],
      [
        ["--email", "x@example.com", "--password", "a long password", "--business", biz, "--role", "boss"],
        "--role must be one of owner, manager, admin",
      ],
    ];
    // One refusal through a process of its own (exit code and stdout), the others in this process.
    const [firstArgs, firstMessage] = cases[0]!;
    const refused = await kassa("user", "create", ...firstArgs, "--json");
    expect(refused.code).toBe(2);
    expect((JSON.parse(refused.stdout) as { error: string }).error).toContain(firstMessage);
    for (const [args, message] of cases) {
      const result = await kassaHere("user", "create", ...args, "--json");
      expect(result.code, args.join(" ")).toBe(2);
      expect((JSON.parse(result.stdout) as { error: string }).error).toContain(message);
    }
    // x@example.com was never created: creating it now reports a new user.
    const created = await kassa(
      "user",
      "create",
      "--email",
      "x@example.com",
      "--password",
      "a long password",
      "--business",
      biz,
      "--json",
    );
    expect(JSON.parse(created.stdout)).toMatchObject({ user_created: true });
  }, 240_000);

  it("demo login says there is none before the first start", async () => {
    const result = await kassa("demo", "login", "--json");
    expect(result.code).toBe(1);
    expect((JSON.parse(result.stdout) as { error: string }).error).toContain("npm start creates it");
  }, 60_000);
});
