// npm run lint:migrations: the rolling-upgrade lint over db/migrations (db/migration-lint.ts,
// decision 0072). Prints each migration that would break the release still running, exits 1 if any.
import path from "node:path";
import { lintMigrationsFolder } from "@/db/migration-lint";

const root = path.resolve(import.meta.dirname, "..");
const problems = lintMigrationsFolder(
  path.join(root, "db", "migrations"),
  path.join(root, "docs", "decisions"),
);
for (const problem of problems) console.error(`${problem.migration}: ${problem.message}\n`);
console.log(
  problems.length ? `${problems.length} migration problem(s)` : "Migrations: expand-only, or marked",
);
process.exit(problems.length ? 1 : 0);
