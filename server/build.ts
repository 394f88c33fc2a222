import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { addCompileHints } from "./compile-hints";

// The Stripe emulator is bundled into the build (transpilePackages): a change to it needs a new build.
const sourceDirs = ["app", "components", "lib", "db", "inngest", "public", "packages/stripe-emulator/src"];
const sourceFiles = ["next.config.ts", "postcss.config.mjs", "package-lock.json", "tsconfig.json"];

function newestMtime(root: string, entry: string): number {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(full)) newest = Math.max(newest, newestMtime(full, child));
  return newest;
}

/** When `.next` was built (0: never), and whether a source file is newer than that build. */
export function buildState(root: string): { built: number; current: boolean } {
  const buildId = path.join(root, ".next", "BUILD_ID");
  const built = fs.existsSync(buildId) ? fs.statSync(buildId).mtimeMs : 0;
  const sources = Math.max(...[...sourceDirs, ...sourceFiles].map((entry) => newestMtime(root, entry)));
  return { built, current: built > 0 && built >= sources };
}

/** Bundles the browser SDK into the build (scripts/build-sdk.ts, decision 0023). */
function buildSdkInto(root: string): void {
  const result = spawnSync(process.execPath, ["--import", "tsx", path.join(root, "scripts", "build-sdk.ts")], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error(`the browser SDK's build failed (exit ${result.status})`);
}

/** Runs `next build` and the SDK's when there is no build yet or a source file is newer than it. */
export function buildIfNeeded(root: string): void {
  const { built, current } = buildState(root);
  if (current) {
    // A build made before the SDK (or the compile hints) were part of it.
    if (!fs.existsSync(path.join(root, ".next", "kassa-sdk", "kassa.js"))) buildSdkInto(root);
    addCompileHints(path.join(root, ".next"));
    return;
  }
  console.log(
    built
      ? "Sources changed since the last build: building Kassa…"
      : "First start: building Kassa (about a minute)…",
  );
  const result = spawnSync(
    process.execPath,
    [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"],
    {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    },
  );
  if (result.status !== 0) throw new Error(`next build failed (exit ${result.status})`);
  buildSdkInto(root);
  addCompileHints(path.join(root, ".next"));
}
