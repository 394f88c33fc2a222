import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import vm from "node:vm";
import zlib from "node:zlib";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { buildSdk, placeholderBases, readBuiltSdk, sdkSourceDir, withBases, writeBuiltSdk, type SdkFiles } from "./build-sdk";

let files: SdkFiles;

beforeAll(async () => {
  files = await buildSdk({ apiBase: "/api", checkoutBase: "/checkout" });
});

type Client = { checkoutUrl(id: string): string };
type GlobalKassa = ((key: string, options?: { baseUrl?: string }) => Client) & { KassaError: unknown };

/** Runs the script-tag build as a page would after `<script src=…>`, and returns `window.Kassa`. */
function runScriptTag(text: string, src: string): GlobalKassa {
  const window = { document: { currentScript: { src } }, URL } as Record<string, unknown>;
  window.window = window;
  vm.runInNewContext(text, window);
  return window.Kassa as GlobalKassa;
}

describe("the browser SDK's build", () => {
  it("stays under 5 kB gzip, both builds", () => {
    for (const name of ["kassa.js", "kassa.global.js"] as const) {
      const gzipped = zlib.gzipSync(files[name], { level: 9 }).length;
      expect(gzipped, name).toBeGreaterThan(500);
      expect(gzipped, name).toBeLessThan(5 * 1024);
    }
  });

  it("makes an ES module exporting Kassa and its errors, and a script-tag build without import.meta", () => {
    expect(files["kassa.js"]).toMatch(/export\s*\{[^}]*\bKassa\b/);
    expect(files["kassa.js"]).toContain("import.meta.url");
    expect(files["kassa.global.js"]).not.toMatch(/import\.meta|export\s*\{/);
  });

  it("script-tag build: window.Kassa finds Kassa's API and checkout from the script's own address", () => {
    const Kassa = runScriptTag(files["kassa.global.js"], "https://pay.example.com/sdk/v1/kassa.global.js");
    expect(typeof Kassa.KassaError).toBe("function");
    expect(Kassa("pk_test_x").checkoutUrl("cs_1")).toBe("https://pay.example.com/checkout/cs_1");
    // A baseUrl given by the page moves the default checkout page to its origin.
    expect(Kassa("pk_test_x", { baseUrl: "https://kassa.shop.test/api" }).checkoutUrl("cs 2")).toBe(
      "https://kassa.shop.test/checkout/cs%202",
    );
  });

  it("compiles in a checkout_url on another host as it is", async () => {
    const other = await buildSdk({ apiBase: "/api", checkoutBase: "https://checkout.example.net/pay" });
    const Kassa = runScriptTag(other["kassa.global.js"], "https://pay.example.com/sdk/v1/kassa.global.js");
    expect(Kassa("pk_test_x").checkoutUrl("cs_1")).toBe("https://checkout.example.net/pay/cs_1");
  });

  it("types: a correct call compiles against kassa.d.ts, a session without items does not", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "kassa-dts-"));
    await fs.writeFile(path.join(dir, "kassa.d.ts"), files["kassa.d.ts"]);
    const use = (body: string) =>
      `import { Kassa, KassaError } from "./kassa.js";\nconst kassa = Kassa("pk_test_x");\n${body}\n` +
      `export const handle = (e: unknown) => e instanceof KassaError ? [e.status, e.fields, e.retryAfter] : null;\n`;
    await fs.writeFile(
      path.join(dir, "good.ts"),
      use(
        `export const s = kassa.createSession({ amount: 2500, currency: "USD", customer: "c", order_id: "o", ` +
          `items: [{ name: "T", quantity: 1, price: 2500 }] }, { idempotencyKey: "k" }).then((s) => s.session_id);\n` +
          `export const m = kassa.listMethods({ countries: ["US"] }).then((m) => m.card?.fees.percent_fees);`,
      ),
    );
    await fs.writeFile(
      path.join(dir, "bad.ts"),
      use(`export const s = kassa.createSession({ amount: 2500, currency: "USD", customer: "c", order_id: "o" });`),
    );
    const diagnostics = (file: string) =>
      ts
        .getPreEmitDiagnostics(
          ts.createProgram([path.join(dir, file)], {
            strict: true,
            noEmit: true,
            target: ts.ScriptTarget.ES2022,
            module: ts.ModuleKind.ESNext,
            moduleResolution: ts.ModuleResolutionKind.Bundler,
            lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
            noUncheckedIndexedAccess: true,
            skipLibCheck: true,
          }),
        )
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, " "));
    expect(diagnostics("good.ts")).toEqual([]);
    expect(diagnostics("bad.ts").join("\n")).toMatch(/items/);
  });
});

describe("the SDK built with the app", () => {
  it("serves, once this Kassa's bases are put in, exactly what a build with those bases makes", async () => {
    const prebuilt = await buildSdk(placeholderBases);
    for (const bases of [
      { apiBase: "/api", checkoutBase: "/checkout" },
      { apiBase: "https://api.example.com/v1", checkoutBase: "https://checkout.example.net/pay?x=1&y=%22" },
    ]) {
      expect(withBases(prebuilt, bases)).toEqual(await buildSdk(bases));
    }
  });

  it("is written into the build and read back from there", async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), "kassa-sdk-build-"));
    await fs.cp(sdkSourceDir(), sdkSourceDir(root), { recursive: true });
    expect(await readBuiltSdk(root)).toBeNull();
    await writeBuiltSdk(root);
    expect(await readBuiltSdk(root)).toEqual(await buildSdk(placeholderBases, root));
    await fs.rm(root, { recursive: true, force: true });
  });
});
