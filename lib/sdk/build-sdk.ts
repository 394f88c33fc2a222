import fs from "node:fs/promises";
import path from "node:path";
import { build, type BuildOptions } from "esbuild";

/** base_url and checkout_url as the bundle knows them: paths on the script's own origin, or absolute. */
export type SdkBases = { apiBase: string; checkoutBase: string };

export const sdkFileNames = ["kassa.js", "kassa.global.js", "kassa.d.ts"] as const;
export type SdkFileName = (typeof sdkFileNames)[number];
export type SdkFiles = Record<SdkFileName, string>;

/** The SDK's source folder; Kassa runs from its own folder (npm start), as Next does. */
export const sdkSourceDir = (root = process.cwd()) => path.join(root, "lib", "sdk", "browser");

async function bundle(entry: string, options: BuildOptions): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    write: false,
    target: "es2020",
    platform: "browser",
    legalComments: "none",
    logLevel: "silent",
    ...options,
  });
  // A warning (an import.meta left in the script-tag build, say) would be a broken bundle.
  if (result.warnings.length) throw new Error(`SDK bundle ${entry}: ${result.warnings.map((w) => w.text).join("; ")}`);
  return result.outputFiles![0]!.text;
}

/** kassa.d.ts: the declarations of kassa.ts, which states every exported type (isolatedDeclarations). */
async function declarations(source: string): Promise<string> {
  const ts = (await import("typescript")).default;
  const result = ts.transpileDeclaration(source, {
    fileName: "kassa.ts",
    reportDiagnostics: true,
    compilerOptions: { isolatedDeclarations: true, declaration: true, target: ts.ScriptTarget.ES2020, strict: true },
  });
  if (result.diagnostics?.length)
    throw new Error(`kassa.d.ts: ${result.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, " ")).join("; ")}`);
  return `// Types of Kassa.js, the browser SDK (docs/sdk.md).\n${result.outputText}`;
}

/**
 * The browser SDK's three files: the ES module, the script-tag build (`window.Kassa`) and the
 * types. The bases are compiled in, so one Kassa's bundle always talks to that Kassa (decision 0023).
 */
export async function buildSdk(bases: SdkBases, root?: string): Promise<SdkFiles> {
  const dir = sdkSourceDir(root);
  const define = {
    __KASSA_API_BASE__: JSON.stringify(bases.apiBase),
    __KASSA_CHECKOUT_BASE__: JSON.stringify(bases.checkoutBase),
  };
  const [esm, global, source] = await Promise.all([
    bundle(path.join(dir, "kassa.ts"), { format: "esm", define }),
    // A classic script has no import.meta: it knows its own address from document.currentScript.
    bundle(path.join(dir, "global.ts"), {
      format: "iife",
      define: { ...define, "import.meta.url": "document.currentScript.src" },
    }),
    fs.readFile(path.join(dir, "kassa.ts"), "utf8"),
  ]);
  return { "kassa.js": esm, "kassa.global.js": global, "kassa.d.ts": await declarations(source) };
}
