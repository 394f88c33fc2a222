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

/** Where the build (`npm run build`, or `npm start`'s) leaves the bundle, inside Next's own output. */
export const builtSdkDir = (root = process.cwd()) => path.join(root, ".next", "kassa-sdk");

/**
 * The bases the build compiles in, replaced by this Kassa's when the files are served: the build
 * cannot know ORIGIN, API_BASE_URL or CHECKOUT_URL, which are read at run time.
 */
export const placeholderBases: SdkBases = { apiBase: "__KASSA_SDK_API_BASE__", checkoutBase: "__KASSA_SDK_CHECKOUT_BASE__" };

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

/**
 * The files built with {@link placeholderBases}, with this Kassa's bases put in: the same text
 * `buildSdk(bases)` makes (build-sdk.test.ts compares them). Each placeholder sits inside a string
 * literal, so the base goes in escaped as a JSON string's contents.
 */
export function withBases(files: SdkFiles, bases: SdkBases): SdkFiles {
  const put = (text: string) => {
    let out = text;
    for (const key of ["apiBase", "checkoutBase"] as const) {
      if (!out.includes(placeholderBases[key])) throw new Error(`the built SDK lacks the ${key} placeholder`);
      out = out.split(placeholderBases[key]).join(JSON.stringify(bases[key]).slice(1, -1));
    }
    return out;
  };
  return { "kassa.js": put(files["kassa.js"]), "kassa.global.js": put(files["kassa.global.js"]), "kassa.d.ts": files["kassa.d.ts"] };
}

/** Builds the SDK into {@link builtSdkDir}: part of the app's build (scripts/build-sdk.ts). */
export async function writeBuiltSdk(root = process.cwd()): Promise<void> {
  const files = await buildSdk(placeholderBases, root);
  const dir = builtSdkDir(root);
  await fs.mkdir(dir, { recursive: true });
  await Promise.all(sdkFileNames.map((name) => fs.writeFile(path.join(dir, name), files[name])));
}

/** The files the build left, or null when there is no build (`npm run dev`, tests). */
export async function readBuiltSdk(root = process.cwd()): Promise<SdkFiles | null> {
  try {
    const texts = await Promise.all(sdkFileNames.map((name) => fs.readFile(path.join(builtSdkDir(root), name), "utf8")));
    return Object.fromEntries(sdkFileNames.map((name, i) => [name, texts[i]!])) as SdkFiles;
  } catch {
    return null;
  }
}
