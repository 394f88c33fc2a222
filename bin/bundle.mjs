// A prebuilt bundle of one of Kassa's TypeScript entries (server/cli.ts for `npx kassa`, the test
// servers), so a process starts without tsx's loader: our sources bundled by esbuild into
// node_modules/.cache/kassa/, packages left as imports. Rebuilt when any source it holds changed
// (its size or modification time), and null (the caller runs the source through tsx) when it
// cannot be built. Decision 0041, "Later: processes started from a bundle".
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cacheDir = path.join(root, "node_modules", ".cache", "kassa", "bundles");
const builder = path.relative(root, fileURLToPath(import.meta.url));
/** A superseded build is removed once this old: a process started from it may still load its chunks. */
const keepSupersededMs = 60 * 60_000;

/**
 * The file URL of `entry`'s bundle (a path relative to the project root), built or rebuilt if
 * needed; null when it cannot be built, or with KASSA_BUNDLE=0.
 */
export async function bundledEntry(entry) {
  if (process.env.KASSA_BUNDLE === "0") return null;
  const { file, name, manifestFile } = names(entry);
  const fresh = freshBundle(manifestFile);
  if (fresh) return fresh;
  try {
    return await build(file, name, manifestFile);
  } catch {
    return null;
  }
}

/** The file URL of `entry`'s bundle if one is up to date, without building one. */
export function builtEntry(entry) {
  return process.env.KASSA_BUNDLE === "0" ? null : freshBundle(names(entry).manifestFile);
}

function names(entry) {
  const file = path.relative(root, path.resolve(root, entry)).split(path.sep).join("/");
  const name = file.replace(/\.[cm]?tsx?$/, "").replace(/[^\w-]+/g, "_");
  return { file, name, manifestFile: path.join(cacheDir, `${name}.json`) };
}

/** The manifest's bundle, if it was built here from sources that have not changed since. */
function freshBundle(manifestFile) {
  let manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8"));
  } catch {
    return null;
  }
  if (manifest.root !== root || manifest.node !== process.versions.node) return null;
  for (const [file, mtimeMs, size] of manifest.inputs) {
    const stat = fs.statSync(path.join(root, file), { throwIfNoEntry: false });
    if (!stat || stat.mtimeMs !== mtimeMs || stat.size !== size) return null;
  }
  const main = path.join(cacheDir, manifest.main);
  return fs.existsSync(main) ? pathToFileURL(main).href : null;
}

async function build(entry, name, manifestFile) {
  const { build: esbuild } = await import("esbuild");
  const started = Date.now();
  const outName = `${name}-${crypto.randomBytes(6).toString("hex")}`;
  const outdir = path.join(cacheDir, outName);
  const result = await esbuild(buildOptions({ [name]: entry }, outdir));
  const inputs = [...Object.keys(result.metafile.inputs), builder, "tsconfig.json", "package.json"].map((file) => {
    const stat = fs.statSync(path.join(root, file));
    // Changed while being bundled: this build may hold either version, so the next run rebuilds.
    // Compared in whole milliseconds, as Date.now() gives them: a file written in the millisecond
    // the build started in, just before it (a test writes its fixture, then builds), has a later
    // fractional mtime than `started` without having changed during the build.
    if (Math.floor(stat.mtimeMs) > started) throw new Error(`${file} changed during the build`);
    return [file, stat.mtimeMs, stat.size];
  });
  const main = Object.keys(result.metafile.outputs).find((file) => result.metafile.outputs[file].entryPoint);
  const manifest = { root, node: process.versions.node, main: path.relative(cacheDir, path.join(root, main)), inputs };
  const temporary = `${manifestFile}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(manifest));
  fs.renameSync(temporary, manifestFile);
  removeSuperseded(name, outName);
  return pathToFileURL(path.join(cacheDir, manifest.main)).href;
}

function buildOptions(entryPoints, outdir) {
  return {
    absWorkingDir: root,
    entryPoints,
    outdir,
    bundle: true,
    // Chunks, so what a command loads on demand (a database driver, say) still loads on demand.
    splitting: true,
    format: "esm",
    platform: "node",
    target: `node${process.versions.node}`,
    packages: "external",
    tsconfig: path.join(root, "tsconfig.json"),
    plugins: [packageImports(), ownLocation()],
    metafile: true,
    logLevel: "silent",
  };
}

function removeSuperseded(name, current) {
  for (const entry of fs.readdirSync(cacheDir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === current || !entry.name.startsWith(`${name}-`)) continue;
    const dir = path.join(cacheDir, entry.name);
    if (Date.now() - fs.statSync(dir).mtimeMs > keepSupersededMs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

function absoluteLocation(file) {
  const [url, dirname, filename] = [pathToFileURL(file).href, path.dirname(file), file].map((v) => JSON.stringify(v));
  return { url, dirname, filename };
}

const relativeImports =
  'import { fileURLToPath as __kassaFilePath } from "node:url"; import { dirname as __kassaDirname } from "node:path";\n';

/** The source file's location as expressions from the output file's `import.meta.url` (all outputs in `outdir`). */
function relativeLocation(outdir, file) {
  const relative = JSON.stringify(path.relative(outdir, file).split(path.sep).join("/"));
  const url = `new URL(${relative}, import.meta.url)`;
  return { url: `${url}.href`, filename: `__kassaFilePath(${url})`, dirname: `__kassaDirname(__kassaFilePath(${url}))` };
}

/**
 * Packages stay imports, as Node resolves them, with two exceptions. A workspace package whose
 * exports are TypeScript sources (@kassa/stripe-emulator) is bundled. A deep import into a package
 * without "exports" (`next/dist/compiled/compression`) names its file, as Node's ES module
 * resolution, unlike tsx's, neither adds extensions nor finds a folder's index.
 */
export function packageImports() {
  return {
    name: "kassa-package-imports",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith("node:") || args.path.startsWith("@/") || isBuiltin(args.path)) return undefined;
        const parts = args.path.split("/");
        const pkg = parts.slice(0, args.path.startsWith("@") ? 2 : 1).join("/");
        const subpath = args.path.slice(pkg.length);
        const manifestPath = packageManifest(args.resolveDir, pkg);
        if (!manifestPath) return undefined;
        const { exports } = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
        if (exports) {
          const target = typeof exports === "string" && !subpath ? exports : exports[`.${subpath}`];
          if (typeof target !== "string" || !/\.tsx?$/.test(target)) return undefined;
          return { path: fs.realpathSync(path.join(path.dirname(manifestPath), target)) };
        }
        if (!subpath) return undefined;
        const file = createRequire(manifestPath).resolve(args.path);
        return { path: `${pkg}/${path.relative(path.dirname(manifestPath), file).split(path.sep).join("/")}`, external: true };
      });
    },
  };
}

/** The package.json of `pkg` as Node finds it from `dir` (its own "exports" may not list it). */
function packageManifest(dir, pkg) {
  for (;;) {
    const candidate = path.join(dir, "node_modules", pkg, "package.json");
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return null;
    dir = path.dirname(dir);
  }
}

/**
 * `import.meta.url`, `.dirname` and `.filename` keep meaning the source file, not the bundle: code
 * that finds files beside itself (db/client.ts's migrations, say) finds them where it did. With
 * `outdir` (bin/compile.mjs), each is written relative to the output file's own location, so the
 * project's folder can move (a container image) as long as the output stays where it was built.
 */
export function ownLocation(outdir) {
  const use = /(?<![\w."'`])import\.meta\.(url|dirname|filename)(?![\w"'`])/g;
  return {
    name: "kassa-own-location",
    setup(build) {
      build.onLoad({ filter: /\.[cm]?tsx?$/ }, (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = fs.readFileSync(args.path, "utf8");
        if (!source.includes("import.meta.")) return undefined;
        const values = outdir ? relativeLocation(outdir, args.path) : absoluteLocation(args.path);
        const contents = (outdir ? relativeImports : "") + source.replace(use, (_, key) => values[key]);
        return { contents, loader: args.path.endsWith("x") ? "tsx" : "ts" };
      });
    },
  };
}
