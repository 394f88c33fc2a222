import { defineConfig } from "vitest/config";

// The package's own tests, run alone (`npm test -w @kassa/stripe-emulator`); Kassa's root config runs them too.
export default defineConfig({
  test: { include: ["test/**/*.test.ts"], testTimeout: 30_000, pool: "forks" },
});
