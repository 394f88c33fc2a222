#!/usr/bin/env node
// Prints the vitest files CI's PostgreSQL pass runs (docs/decisions/0041): those that opened a
// database in the PGlite pass (listed, one path a line, in the file named by the first argument),
// those that start processes of their own, which read DATABASE_URL themselves, and those that need
// the production build (they look for `.next/BUILD_ID`): the PGlite pass runs before CI's first build, so they
// skip there without opening a database, and would otherwise never run.
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const opened = fs.existsSync(process.argv[2] ?? "")
  ? fs.readFileSync(process.argv[2], "utf8").split("\n")
  : [];
const tracked = execFileSync("git", ["ls-files", "*.test.ts"], { encoding: "utf8" }).split("\n");
const startsProcesses = /DATABASE_URL|\bspawn\(|\bexecFile(Sync)?\(|\bfork\(/;
const needsBuild = /"\.next", "BUILD_ID"|\bbuildState\(/;
const files = new Set(opened.filter(Boolean));
for (const file of tracked) {
  if (!file || file.startsWith("packages/") || file.startsWith("e2e/")) continue;
  const text = fs.readFileSync(file, "utf8");
  if (startsProcesses.test(text) || needsBuild.test(text)) files.add(file);
}
if (files.size === 0) {
  console.error("database-test-files: no file listed; is the PGlite pass's list missing?");
  process.exit(1);
}
console.log([...files].sort().join("\n"));
