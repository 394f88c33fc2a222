#!/usr/bin/env node
// `npm start`: Kassa's production server (server/main.ts) from its compiled entry
// (dist/server/main.mjs, ./compile.mjs), compiled first when it is missing or older than its
// sources, or through tsx's loader when it cannot be compiled. The first start also builds the
// Next app (server/build.ts), as before. Decision 0076.
import { compiledOrCompile } from "./compile.mjs";

const entry = await compiledOrCompile("main");
if (entry) {
  await import(entry);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../server/main.ts");
}
