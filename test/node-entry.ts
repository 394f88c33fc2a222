// How tests start our TypeScript entries as processes of their own: from the bundles the global
// set-up builds (bin/bundle.mjs), which start without tsx's loader, or through tsx when a bundle
// is missing or older than its sources (the file was edited during the run, or it failed to build).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { builtEntry, bundledEntry } from "@/bin/bundle.mjs";

/** The entries tests start as processes (server/main.ts stays on tsx: it is `npm start` itself). */
export const childEntries = [
  "server/cli.ts",
  "server/test-command-server.ts",
  "server/test-http-server.ts",
  "lib/worker/testing/worker-process.ts",
  "lib/payments/testing/restart-pay-process.ts",
  "lib/payments/testing/crash-test-process.ts",
];

/** Builds the bundles of `childEntries` that are missing or out of date (test/global-setup.ts). */
export async function buildChildEntries(): Promise<void> {
  await Promise.all(childEntries.map((entry) => bundledEntry(entry)));
}

/** The `node` arguments that run `entry` (relative to the project root, or absolute). */
export function nodeEntryArgs(entry: string): string[] {
  const bundle = builtEntry(entry);
  return bundle ? [fileURLToPath(bundle)] : ["--import", "tsx", path.resolve(import.meta.dirname, "..", entry)];
}
