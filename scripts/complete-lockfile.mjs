#!/usr/bin/env node
// The npm registry reachable here serves only some platforms' builds of packages such as
// @next/swc-*: npm leaves the others out of package-lock.json, and `npm ci` then refuses the lock
// as out of sync ("Missing: @next/swc-darwin-arm64@ from lock file"). This adds an entry for each
// missing optional, platform-specific package (version from its parent, os/cpu from its name), so
// `npm ci` accepts the lock and skips them on platforms they are not for. Decision 0011.
// Usage: node scripts/complete-lockfile.mjs   (after any `npm install` that changes the lock)
import { execFileSync } from "node:child_process";
import fs from "node:fs";

const lockPath = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(fs.readFileSync(lockPath, "utf8"));

function missing() {
  try {
    execFileSync("npm", ["ci", "--dry-run", "--ignore-scripts"], { stdio: "pipe", encoding: "utf8" });
    return [];
  } catch (error) {
    const text = `${error.stdout ?? ""}${error.stderr ?? ""}`;
    return [...text.matchAll(/Missing: (@?[^@\s]+)@\S* from lock file/g)].map((m) => m[1]);
  }
}

const osNames = ["darwin", "linux", "win32", "freebsd", "android", "openharmony", "netbsd", "openbsd", "sunos", "aix"];
const cpuNames = ["arm64", "x64", "ia32", "arm", "ppc64", "s390x", "riscv64", "loong64", "wasm32", "mips64el"];

function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = osNames.find((o) => parts.includes(o) || (o === "win32" && parts.includes("win")));
  const cpu = cpuNames.find((c) => parts.includes(c) || (c === "arm" && parts.includes("eabi")));
  return { os, cpu };
}

function wantedVersion(name) {
  for (const entry of Object.values(lock.packages))
    for (const field of ["optionalDependencies", "dependencies"]) {
      const spec = entry[field]?.[name];
      if (spec) return spec.replace(/^[\^~=]/, "");
    }
  return null;
}

const names = missing();
let added = 0;
for (const name of names) {
  const key = `node_modules/${name}`;
  if (lock.packages[key]) continue;
  const version = wantedVersion(name);
  const { os, cpu } = platformOf(name);
  // A WebAssembly build (`*-wasm32-wasi`) runs on every OS: `cpu` only, no `os`.
  if (!version || (!os && cpu !== "wasm32")) {
    console.error(`cannot complete ${name}: version ${version}, os ${os}`);
    process.exitCode = 1;
    continue;
  }
  lock.packages[key] = { version, optional: true, ...(os ? { os: [os] } : {}), ...(cpu ? { cpu: [cpu] } : {}) };
  added += 1;
}
// In npm's own order (its lock is sorted with an English locale compare), so that a later
// `npm install` that changes nothing leaves the file as it is.
const sorted = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b, "en"))));
lock.packages = sorted;
fs.writeFileSync(lockPath, JSON.stringify(lock, null, 2) + "\n");
const left = missing();
console.log(`package-lock.json: ${added} platform entries added; npm ci ${left.length ? `still misses ${left.join(", ")}` : "accepts the lock"}.`);
if (left.length) process.exitCode = 1;
