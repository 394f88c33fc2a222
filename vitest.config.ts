import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["**/*.test.ts"],
    exclude: [
      "node_modules/**",
      "e2e/**",
      ".next/**",
      ".data/**",
      // The packages (the Stripe emulator, @kassa/node) never open Kassa's database: a PostgreSQL
      // pass (DATABASE_URL) would only run them again.
      ...(process.env.DATABASE_URL ? ["packages/**"] : []),
    ],
    globalSetup: ["test/global-setup.ts"],
    setupFiles: ["test/setup-file.ts"],
    // A bound for a hung test, not a speed goal: on a slow CI machine running three workers, a file's
    // first test (loading modules on first use) once took over 30 s.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // A worker runs its files one after another with the modules it loaded kept: each file's
    // start-up was most of a file's CPU (docs/decisions/0041). Each file still gets its own
    // database; test/setup-file.ts undoes what a file changed in the process (environment,
    // emulator, timers, spies), and a file that stands in for a module with vi.mock resets the
    // module graph first.
    isolate: false,
    // Vitest's default (one worker fewer than the cores) is a single worker on a 2-core machine, where
    // most files wait on a database, a child process or a socket: three keep both cores busy.
    maxWorkers: Math.max(3, os.availableParallelism() - 1),
    // next-auth imports `next/server` without an extension, which only a bundler resolves.
    server: { deps: { inline: ["next-auth"] } },
  },
});
