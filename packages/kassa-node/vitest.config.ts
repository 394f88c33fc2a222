import path from "node:path";
import { defineConfig } from "vitest/config";

// The package's own tests, run alone (`npm test -w @kassa/node`); Kassa's root config runs them too.
// They reach Kassa's code (its OpenAPI document, its webhook signing) through the root's `@` alias.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "../..") } },
  test: { include: ["test/**/*.test.ts"], testTimeout: 30_000, pool: "forks" },
});
