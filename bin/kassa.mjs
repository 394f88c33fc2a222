#!/usr/bin/env node
// `npx kassa <command>`: runs the TypeScript CLI (server/cli.ts) from its prebuilt bundle
// (./bundle.mjs, rebuilt when a source changed), or through tsx's loader when it cannot be built.
import { bundledEntry } from "./bundle.mjs";

const bundle = await bundledEntry("server/cli.ts");
if (bundle) {
  await import(bundle);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../server/cli.ts");
}
