// The rolling-upgrade lint over db/migrations (decision 0072): during a deploy the previous release
// runs on the database the new release has migrated, so a migration may only expand. What breaks
// the running version is refused unless the migration names, in a `-- kassa:breaking decision NNNN`
// comment, a decision record that exists (docs/decisions/NNNN-*.md) and says how the deploy goes.
import fs from "node:fs";
import path from "node:path";
import { alterActions, bareName, breakingMarkers, sqlStatements } from "./migration-sql";
import { grandfathered, type Rule } from "./migration-lint-grandfathered";

export type { Rule };

export type Finding = { rule: Rule; statement: string };

/** Why each rule breaks the release that still runs (the lint's message). */
export const ruleReasons: Record<Rule, string> = {
  drop: "drops a table, column, view, type or function the running release may read",
  rename: "renames a table or column the running release reads by its old name",
  "type-change":
    "changes a column's type (a rewrite under an exclusive lock; the running release may write the old type)",
  "not-null-without-default":
    "adds a NOT NULL column without a default: the running release's inserts omit it and fail",
  "set-not-null":
    "makes a column NOT NULL: the running release may still write NULL (and the check scans the table under lock)",
  "index-without-concurrently":
    "creates an index on an existing table without CONCURRENTLY: writes to the table wait for the whole build",
};

const identifier = String.raw`(?:"(?:[^"]|"")+"|[\w$]+)(?:\.(?:"(?:[^"]|"")+"|[\w$]+))?`;
const createTable = new RegExp(
  String.raw`^CREATE (?:UNLOGGED )?TABLE (?:IF NOT EXISTS )?(${identifier})`,
  "i",
);
const alterTable = new RegExp(String.raw`^ALTER TABLE (?:IF EXISTS )?(?:ONLY )?(${identifier}) (.*)$`, "i");
const createIndex = new RegExp(
  String.raw`^CREATE (?:UNIQUE )?INDEX (CONCURRENTLY )?(?:IF NOT EXISTS )?(?:${identifier} )?ON (?:ONLY )?(${identifier})`,
  "i",
);

/** The rules one ALTER TABLE action breaks (`table` was created earlier when `existing`). */
function alterActionFindings(action: string, existing: boolean): Rule[] {
  if (/^DROP (?!CONSTRAINT\b)/i.test(action)) return ["drop"];
  if (/^RENAME (?!CONSTRAINT\b)/i.test(action)) return ["rename"];
  const column = /^ALTER (?:COLUMN )?\S+ (.*)$/i.exec(action);
  if (column && /^(?:SET DATA )?TYPE\b/i.test(column[1]!)) return ["type-change"];
  if (column && /^SET NOT NULL\b/i.test(column[1]!)) return existing ? ["set-not-null"] : [];
  const added = /^ADD (?!CONSTRAINT\b|PRIMARY\b|UNIQUE\b|FOREIGN\b|CHECK\b)(?:COLUMN )?(.*)$/i.exec(action);
  if (added && existing && /\bNOT NULL\b/i.test(added[1]!) && !/\bDEFAULT\b|\bGENERATED\b/i.test(added[1]!))
    return ["not-null-without-default"];
  return [];
}

/** What one statement breaks, given the tables its migration creates before it. */
function statementFindings(statement: string, created: Set<string>): Rule[] {
  if (/^DROP (?:TABLE|VIEW|MATERIALIZED VIEW|TYPE|FUNCTION|SCHEMA)\b/i.test(statement)) return ["drop"];
  if (/^ALTER (?:TYPE|VIEW|FUNCTION|SCHEMA) \S+ RENAME\b/i.test(statement)) return ["rename"];
  const index = createIndex.exec(statement);
  if (index) return index[1] || created.has(bareName(index[2]!)) ? [] : ["index-without-concurrently"];
  const alter = alterTable.exec(statement);
  if (!alter) return [];
  const existing = !created.has(bareName(alter[1]!));
  return alterActions(alter[2]!).flatMap((action) => alterActionFindings(action, existing));
}

/** What a migration's SQL does that breaks the release still running beside the new one. */
export function lintMigrationSql(text: string): Finding[] {
  const created = new Set<string>();
  const findings: Finding[] = [];
  for (const statement of sqlStatements(text)) {
    const table = createTable.exec(statement);
    if (table) created.add(bareName(table[1]!));
    for (const rule of statementFindings(statement, created)) findings.push({ rule, statement });
  }
  return findings;
}

export type Problem = { migration: string; message: string };

/** Whether docs/decisions holds the record numbered `number` (a file `NNNN-*.md`). */
function decisionExists(decisionsDir: string, number: string): boolean {
  return fs.readdirSync(decisionsDir).some((name) => name.startsWith(`${number}-`) && name.endsWith(".md"));
}

/**
 * A marked migration's indexes on existing tables must read `CREATE INDEX IF NOT EXISTS`: an
 * operator whose table is too big for a build under lock makes the index CONCURRENTLY beforehand
 * (docs/deploy.md), and the migration then finds it there (decision 0072).
 */
function unguardedIndexes(name: string, findings: Finding[]): Problem[] {
  return findings
    .filter((f) => f.rule === "index-without-concurrently" && !/\bIF NOT EXISTS\b/i.test(f.statement))
    .map((f) => ({
      migration: name,
      message: `an index on an existing table must read CREATE INDEX IF NOT EXISTS, so it can be built CONCURRENTLY beforehand (decision 0072):\n    ${f.statement.slice(0, 160)}`,
    }));
}

/** The problems of one migration file: findings it neither marks nor is grandfathered for. */
function migrationProblems(name: string, text: string, decisionsDir: string): Problem[] {
  const tag = name.replace(/\.sql$/, "");
  const findings = lintMigrationSql(text);
  const old = grandfathered[tag];
  if (old) {
    const found = [...new Set(findings.map((f) => f.rule))].sort();
    const listed = [...old.rules].sort();
    if (found.join() === listed.join()) return [];
    return [
      {
        migration: name,
        message: `grandfathered for [${listed.join(", ")}] but breaks [${found.join(", ")}]: update the list in db/migration-lint-grandfathered.ts`,
      },
    ];
  }
  if (!findings.length) return [];
  const markers = breakingMarkers(text);
  const missing = markers.filter((number) => !decisionExists(decisionsDir, number));
  if (markers.length && !missing.length) return unguardedIndexes(name, findings);
  const detail = findings
    .map((f) => `  ${f.rule}: ${ruleReasons[f.rule]}\n    ${f.statement.slice(0, 160)}`)
    .join("\n");
  const fix = missing.length
    ? `its marker names decision ${missing.join(", ")}, which docs/decisions does not hold`
    : "expand then contract (docs/deploy.md), or add `-- kassa:breaking decision NNNN` naming a decision record that says how the deploy goes";
  return [{ migration: name, message: `${fix}:\n${detail}` }];
}

/** Every problem in a migrations folder (the `.sql` files), checked against a decisions folder. */
export function lintMigrationsFolder(migrationsDir: string, decisionsDir: string): Problem[] {
  const names = fs
    .readdirSync(migrationsDir)
    .filter((name) => name.endsWith(".sql"))
    .sort();
  const problems = names.flatMap((name) =>
    migrationProblems(name, fs.readFileSync(path.join(migrationsDir, name), "utf8"), decisionsDir),
  );
  const tags = new Set(names.map((name) => name.replace(/\.sql$/, "")));
  for (const tag of Object.keys(grandfathered))
    if (!tags.has(tag))
      problems.push({ migration: `${tag}.sql`, message: "grandfathered but no longer in the folder" });
  return problems;
}
