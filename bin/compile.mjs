// The production server, the CLI and the embedded database's thread compiled to JavaScript in
// dist/server/ (main.mjs, cli.mjs, pglite-thread.mjs and their shared chunks): `npm run build`
// writes them, `npm start` (bin/start.mjs) and `npx kassa` (bin/kassa.mjs) run them without a
// TypeScript loader, compiling them first when a source changed. Packages stay imports, as in
// bin/bundle.mjs; the outputs find the project's files relative to themselves, so the project's
// folder may move (a container image) as long as dist/server stays inside it. Decision 0076.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ownLocation, packageImports } from "./bundle.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outdir = path.join(root, "dist", "server");
const manifestFile = path.join(outdir, "manifest.json");
/** The entries, by output name. */
export const compiledEntries = {
  main: "server/main.ts",
  cli: "server/cli.ts",
  migrate: "server/migrate.ts",
  "pglite-thread": "db/pglite-thread.ts",
};
/** A chunk no longer part of the build is removed once this old: a process started earlier may still load it. */
const keepSupersededMs = 60 * 60_000;
const target = "node20.19";

/**
 * The file URL of the compiled entry `name` (main, cli) when it is up to date with those of its
 * sources that are here; null otherwise, or with KASSA_BUNDLE=0.
 */
export function compiledEntry(name) {
  if (process.env.KASSA_BUNDLE === "0") return null;
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8"));
  } catch {
    return null;
  }
  if (manifest.target !== target || !manifest.entries[name]) return null;
  // A source that is not here is not compared: a deployed tree may hold the build without them
  // (a source deleted while developing means its importers changed too).
  for (const [file, mtimeMs, size] of manifest.inputs) {
    const stat = fs.statSync(path.join(root, file), { throwIfNoEntry: false });
    if (stat && (stat.mtimeMs !== mtimeMs || stat.size !== size)) return null;
  }
  const file = path.join(outdir, manifest.entries[name]);
  return fs.existsSync(file) ? pathToFileURL(file).href : null;
}

/** The compiled entry `name`, compiled first if it is not up to date; null when it cannot be compiled. */
export async function compiledOrCompile(name) {
  const fresh = compiledEntry(name);
  if (fresh || process.env.KASSA_BUNDLE === "0") return fresh;
  try {
    await compile();
  } catch (error) {
    console.error(`Compiling the server failed, running its sources instead: ${error.message}`);
    return null;
  }
  return compiledEntry(name);
}

/** Compiles every entry into dist/server: chunks first, then the entries, then the manifest, each renamed into place. */
export async function compile() {
  const { build } = await import("esbuild");
  const started = Date.now();
  const result = await build({
    absWorkingDir: root,
    entryPoints: compiledEntries,
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target,
    packages: "external",
    tsconfig: path.join(root, "tsconfig.json"),
    plugins: [packageImports(), ownLocation(outdir)],
    // Tells db/pglite-thread-client.ts that the database's thread has a compiled entry beside it.
    banner: { js: "globalThis.kassaCompiledDir ??= import.meta.dirname;" },
    metafile: true,
    write: false,
    logLevel: "silent",
  });
  const here = path.relative(root, fileURLToPath(import.meta.url));
  const inputs = [...Object.keys(result.metafile.inputs), here, "bin/bundle.mjs", "tsconfig.json", "package.json"].map((file) => {
    const stat = fs.statSync(path.join(root, file));
    // Changed while being compiled (whole milliseconds, as in bin/bundle.mjs): the next start compiles again.
    if (Math.floor(stat.mtimeMs) > started) throw new Error(`${file} changed during the build`);
    return [file, stat.mtimeMs, stat.size];
  });
  fs.mkdirSync(outdir, { recursive: true });
  const entries = {};
  for (const file of Object.keys(result.metafile.outputs))
    if (path.basename(file, ".mjs") in compiledEntries) entries[path.basename(file, ".mjs")] = path.basename(file);
  const isEntry = (file) => Object.values(entries).includes(path.basename(file));
  const files = result.outputFiles;
  for (const file of [...files.filter((f) => !isEntry(f.path)), ...files.filter((f) => isEntry(f.path))]) writeInPlace(file.path, file.contents);
  writeInPlace(manifestFile, JSON.stringify({ target, entries, inputs }));
  removeSuperseded(new Set(files.map((f) => path.basename(f.path))));
  return entries;
}

function writeInPlace(file, contents) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, contents);
  fs.renameSync(temporary, file);
}

function removeSuperseded(current) {
  for (const name of fs.readdirSync(outdir)) {
    if (current.has(name) || name === path.basename(manifestFile)) continue;
    const file = path.join(outdir, name);
    if (Date.now() - fs.statSync(file).mtimeMs > keepSupersededMs) fs.rmSync(file, { force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const started = Date.now();
  const entries = await compile();
  console.log(`Compiled ${Object.values(entries).join(", ")} into ${path.relative(root, outdir)} in ${Date.now() - started} ms`);
}
