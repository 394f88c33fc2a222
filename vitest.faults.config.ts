import path from "node:path";
import { defineConfig } from "vitest/config";

// The fault suite (`npm run test:faults`, docs/operations.md "When the database fails"): each file
// starts a Kassa server on a database it owns (a throwaway PostgreSQL cluster, an embedded database
// on a small tmpfs), breaks that database under load and checks the answers. Minutes, needs root
// (initdb as the postgres user, mount): kept out of `vitest run` by its file names (*.faults.ts).
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["test/faults/**/*.faults.ts"],
    testTimeout: 240_000,
    hookTimeout: 180_000,
    pool: "forks",
    fileParallelism: false,
  },
});
