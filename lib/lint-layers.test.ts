import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The layer fences and the no-cycle rule of eslint.config.mjs (decision 0036), run through
// ESLint's own API on code placed at real paths of the repository.

const root = path.resolve(import.meta.dirname, "..");
const eslint = new ESLint({ cwd: root });
// The zones alone: no-cycle would walk the whole import graph of each snippet (it has its own tests below).
const zones = new ESLint({ cwd: root, overrideConfig: { rules: { "import/no-cycle": "off" } } });
// Loading the config and parsing takes a while on a busy machine.
const timeout = 120_000;

async function rulesBroken(filePath: string, code: string): Promise<string[]> {
  const [result] = await zones.lintText(code, { filePath: path.join(root, filePath) });
  return result!.messages.map((m) => m.ruleId ?? m.message);
}

const importing = (specifier: string) => `import * as imported from "${specifier}";\nexport const used = imported;\n`;

describe("layer zones", () => {
  it.each([
    ["lib/payments/active-methods.ts", "@/lib/api/routes"],
    ["lib/sessions/create-session.ts", "@/lib/openapi/document"],
    ["lib/webhooks/webhook-token.ts", "@/lib/dashboard/get-overview"],
    ["lib/subscriptions/list-subscriptions.ts", "@/lib/admin/support-console"],
    ["lib/money.ts", "@/lib/api/routes"],
  ])("%s may not import the delivery layer %s", async (file, specifier) => {
    expect(await rulesBroken(file, importing(specifier))).toContain("import/no-restricted-paths");
  }, timeout);

  it.each([
    ["lib/providers/sandbox/format.ts", "@/lib/payments/active-methods"],
    ["lib/providers/stripe/stripe-client.ts", "@/lib/sessions/create-session"],
    ["lib/providers/provider-for.ts", "@/lib/api/routes"],
  ])("the provider %s may not import %s", async (file, specifier) => {
    expect(await rulesBroken(file, importing(specifier))).toContain("import/no-restricted-paths");
  }, timeout);

  it("next/* stays out of lib/ but for the sign-in glue", async () => {
    expect(await rulesBroken("lib/payments/active-methods.ts", importing("next/navigation"))).toContain(
      "no-restricted-imports",
    );
    expect(await rulesBroken("lib/dashboard/get-overview.ts", importing("next/headers"))).toContain(
      "no-restricted-imports",
    );
    expect(await rulesBroken("lib/staff/current-staff.ts", importing("next/navigation"))).toEqual([]);
  }, timeout);

  it.each([
    ["lib/http/respond.ts", "@/lib/auth/api-keys"],
    ["lib/metrics/registry.ts", "@/lib/ledger/verify-ledger-since"],
    ["lib/idempotency/run-idempotent.ts", "@/lib/payments/pay-session"],
    ["lib/rate-limit/count-in-window.ts", "@/lib/auth/api-key-cache"],
    ["lib/i18n/format.ts", "@/lib/sessions/create-session"],
    ["lib/money.ts", "@/lib/subscriptions/interval"],
    ["lib/errors.ts", "@/lib/job-handlers"],
  ])("the shared %s may not import %s", async (file, specifier) => {
    expect(await rulesBroken(file, importing(specifier))).toContain("@typescript-eslint/no-restricted-imports");
  }, timeout);

  it("lets the shared layer import itself, and a domain import the shared layer", async () => {
    expect(await rulesBroken("lib/metrics/scrape-access.ts", importing("@/lib/http/client-ip"))).toEqual([]);
    expect(await rulesBroken("lib/idempotency/run-idempotent.ts", importing("@/lib/jobs/enqueue-job"))).toEqual([]);
    expect(await rulesBroken("lib/ledger/ledger-verification-schedule.ts", importing("@/lib/metrics/registry"))).toEqual([]);
  }, timeout);

  it("allows what the layers allow", async () => {
    expect(await rulesBroken("lib/api/session.ts", importing("@/lib/sessions/create-session"))).toEqual([]);
    expect(await rulesBroken("lib/sessions/create-session.ts", importing("@/lib/payments/active-methods"))).toEqual([]);
    expect(await rulesBroken("lib/providers/sandbox/format.ts", importing("@/lib/money"))).toEqual([]);
    // Tests and lib/**/testing/ are composition roots.
    expect(await rulesBroken("lib/payments/pay-session.test.ts", importing("@/lib/api/routes"))).toEqual([]);
  }, timeout);
});

describe("import circles", () => {
  // no-cycle reads the imported files from disk, so the circle is two real files. They live in
  // test/, not lib/: a new or removed entry in a folder the Next build reads from (server/build.ts)
  // would make the build look stale, and `npm test`'s browser step would build again.
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(root, "test", "lint-cycle-fixture-"));
    fs.writeFileSync(path.join(dir, "a.ts"), 'import { b } from "./b";\nexport const a = () => b;\n');
    fs.writeFileSync(path.join(dir, "b.ts"), 'import { a } from "./a";\nexport const b = () => a;\n');
    fs.writeFileSync(path.join(dir, "c.ts"), 'export const c = async () => (await import("./d")).d;\n');
    fs.writeFileSync(path.join(dir, "d.ts"), 'import { c } from "./c";\nexport const d = c;\n');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("fails lint on a circle of static imports", async () => {
    const [result] = await eslint.lintFiles([path.join(dir, "a.ts")]);
    expect(result!.messages.map((m) => m.ruleId)).toContain("import/no-cycle");
  }, timeout);

  it("fails lint on a circle closed by a dynamic import", async () => {
    const [result] = await eslint.lintFiles([path.join(dir, "d.ts")]);
    expect(result!.messages.map((m) => m.ruleId)).toContain("import/no-cycle");
  }, timeout);
});
