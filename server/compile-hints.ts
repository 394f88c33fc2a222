import fs from "node:fs";
import path from "node:path";

/**
 * V8's explicit compile hint (Chrome 136+): a script whose first line is this comment has all its
 * functions compiled eagerly, on the background thread that compiles the script while it loads,
 * instead of each one on the main thread when first called (decision 0033, third pass).
 */
export const compileHint = "//# allFunctionsCalledOnLoad";

/**
 * Marks the build's framework chunks (`rootMainFiles` of `.next/build-manifest.json`: Turbopack's
 * runtime, React DOM, Next's router; every page runs them at load) for eager compilation. Run after
 * `next build`; idempotent. Returns the chunks it changed (paths relative to `.next`).
 */
export function addCompileHints(nextDir: string): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(nextDir, "build-manifest.json"), "utf8")) as { rootMainFiles?: string[] };
  const changed: string[] = [];
  for (const file of manifest.rootMainFiles ?? []) {
    if (!file.endsWith(".js")) continue;
    const full = path.join(nextDir, file);
    const source = fs.readFileSync(full, "utf8");
    if (source.startsWith(compileHint)) continue;
    // A new file renamed over the old one: a server reading the chunk never sees half of it.
    fs.writeFileSync(`${full}.hint`, `${compileHint}\n${source}`);
    fs.renameSync(`${full}.hint`, full);
    changed.push(file);
  }
  return changed;
}
