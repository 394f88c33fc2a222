// Marks the build's framework chunks for eager compilation (server/compile-hints.ts, decision
// 0033): run after `next build` by `npm run build` and by `npm start`'s build.
import path from "node:path";
import { addCompileHints } from "@/server/compile-hints";

const changed = addCompileHints(path.resolve(import.meta.dirname, "..", ".next"));
console.log(`Compile hints: ${changed.length ? changed.join(", ") : "already in place"}`);
