// The files the production server reads at run time, copied into a directory of their own: the
// container image's /app (Dockerfile, decision 0070). Run after `npm run build`:
//   node scripts/container/runtime-files.mjs <out>
// What it copies:
// - the files @vercel/nft traces from the compiled entries (dist/server: the server, the CLI,
//   db:migrate, the embedded database's thread), packages included;
// - the files Next traced for its own server and for each page and route (`.next/**/*.nft.json`,
//   the lists `output: "standalone"` copies from);
// - the trees read by path rather than imported: the build (.next, without its cache), public/,
//   the migrations, the stylesheet the hosted checkout inlines, and the files named in `extra`.
// Everything else of node_modules (dev tools, both SWC compilers, Inngest's 200 MB of optional
// OpenTelemetry instrumentations, test browsers) stays out. Prints the count and size copied.
import fs from "node:fs";
import path from "node:path";
import { nodeFileTrace } from "@vercel/nft";

const root = process.cwd();
const out = path.resolve(process.argv[2] ?? "");
if (!process.argv[2]) throw new Error("usage: node scripts/container/runtime-files.mjs <out>");

const entries = ["main", "cli", "migrate", "pglite-thread"].map((name) => path.join(root, "dist/server", `${name}.mjs`));
/** Read by path (fs, a worker's URL, a native binary found at run time): nft cannot see them. */
const trees = [
  "package.json",
  "dist/server",
  ".next",
  "public",
  "db/migrations",
  "app/globals.css",
  // esbuild builds the browser SDK at its first request (decision 0023): its platform binary.
  ...fs
    .readdirSync(path.join(root, "node_modules/@esbuild"))
    .filter((name) => name.startsWith(`${process.platform}-`))
    .map((name) => `node_modules/@esbuild/${name}`),
];
/**
 * Never needed to serve: the build's cache, source maps (136 MB: stack traces name the compiled
 * files instead), Next's development runtimes (the image runs with NODE_ENV=production, and
 * Next picks the `.prod` runtime then; nft lists both as Next names them in one expression), and
 * TypeScript (19 MB), which Next's server trace lists for reading `next.config.ts`: the server
 * starts from the config `next build` saved instead (decision 0076).
 */
const skipped = (file) =>
  file.startsWith(".next/cache/") ||
  file.startsWith("node_modules/typescript/") ||
  file.startsWith(".next/standalone/") ||
  file.endsWith(".map") ||
  /^node_modules\/next\/dist\/compiled\/next-server\/.*\.runtime\.dev\.js$/.test(file);

const files = new Set();
const { fileList, warnings } = await nodeFileTrace(entries, { base: root, processCwd: root });
for (const file of fileList) files.add(file);
// nft tries every file it meets as JavaScript (a .map, a LICENSE, a native library) and names
// optional dependencies that are not installed (sass, encoding): counted, not listed.
if (warnings.size) console.log(`runtime-files: ${warnings.size} trace warnings (optional dependencies, files that are not JavaScript)`);

/** Every `.nft.json` under .next: Next's traces of its server and of each page and route. */
function* nextTraces(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "cache" && entry.name !== "standalone") yield* nextTraces(full);
    else if (entry.name.endsWith(".nft.json")) yield full;
  }
}
let traces = 0;
for (const trace of nextTraces(path.join(root, ".next"))) {
  traces++;
  for (const file of JSON.parse(fs.readFileSync(trace, "utf8")).files) {
    const relative = path.relative(root, path.resolve(path.dirname(trace), file));
    if (!relative.startsWith("..")) files.add(relative);
  }
}
if (traces === 0) throw new Error("no .nft.json under .next: run `npm run build` first");

/** Every file under each tree. */
function* walk(relative) {
  const stat = fs.lstatSync(path.join(root, relative), { throwIfNoEntry: false });
  if (!stat) throw new Error(`${relative} is missing: run \`npm run build\` first`);
  if (!stat.isDirectory()) return yield relative;
  for (const name of fs.readdirSync(path.join(root, relative))) yield* walk(path.join(relative, name));
}
for (const tree of trees) for (const file of walk(tree)) files.add(file);

let bytes = 0;
let copied = 0;
fs.rmSync(out, { recursive: true, force: true });
for (const file of [...files].sort()) {
  if (skipped(file)) continue;
  const from = path.join(root, file);
  const stat = fs.lstatSync(from, { throwIfNoEntry: false });
  if (!stat || stat.isDirectory()) continue;
  const to = path.join(out, file);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  // A workspace package is a link in node_modules (nft lists the link and its target): kept a link.
  if (stat.isSymbolicLink()) fs.symlinkSync(fs.readlinkSync(from), to);
  else {
    fs.copyFileSync(from, to);
    fs.chmodSync(to, stat.mode);
    bytes += stat.size;
  }
  copied++;
}
// Touched last: server/build.ts rebuilds when a source it finds is newer than the build.
const now = new Date();
fs.utimesSync(path.join(out, ".next/BUILD_ID"), now, now);
console.log(`runtime-files: ${copied} files, ${(bytes / 1e6).toFixed(1)} MB, into ${path.relative(root, out) || out}`);
