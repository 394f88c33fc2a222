#!/usr/bin/env node
// `npx kassa <command>`: runs the TypeScript CLI (server/cli.ts) from its compiled entry
// (dist/server/cli.mjs, ./compile.mjs) when that is up to date, else from its prebuilt bundle
// (./bundle.mjs, rebuilt when a source changed), or through tsx's loader when it cannot be built.
import { bundledEntry } from "./bundle.mjs";
import { compiledEntry } from "./compile.mjs";

const bundle = compiledEntry("cli") ?? (await bundledEntry("server/cli.ts"));
if (bundle) {
  await import(bundle);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../server/cli.ts");
}
