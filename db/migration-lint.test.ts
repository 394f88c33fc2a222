import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { lintMigrationSql, lintMigrationsFolder, type Rule } from "./migration-lint";
import { grandfathered } from "./migration-lint-grandfathered";

const root = path.resolve(import.meta.dirname, "..");
const rules = (text: string): Rule[] => lintMigrationSql(text).map((f) => f.rule);

describe("the rolling-upgrade lint over one migration's SQL", () => {
  it.each([
    ['DROP TABLE "plans";', "drop"],
    ['ALTER TABLE "payments" DROP COLUMN "note";', "drop"],
    ["alter table payments drop note;", "drop"],
    ["DROP FUNCTION kassa_claim_order_stem(text, text);", "drop"],
    ['ALTER TABLE "payments" RENAME COLUMN "note" TO "memo";', "rename"],
    ['ALTER TABLE "payments" RENAME TO "charges";', "rename"],
    ['ALTER TABLE "payments" ALTER COLUMN "amount" SET DATA TYPE bigint;', "type-change"],
    ["ALTER TABLE payments ALTER amount TYPE bigint USING amount::bigint;", "type-change"],
    ['ALTER TABLE "payments" ADD COLUMN "memo" text NOT NULL;', "not-null-without-default"],
    ['ALTER TABLE "payments" ALTER COLUMN "memo" SET NOT NULL;', "set-not-null"],
    ['CREATE INDEX "payments_memo_idx" ON "payments" USING btree ("memo");', "index-without-concurrently"],
    [
      'CREATE UNIQUE INDEX IF NOT EXISTS "p_idx" ON "public"."payments" ("memo");',
      "index-without-concurrently",
    ],
  ] as const)("refuses %s", (sql, rule) => {
    expect(rules(sql)).toEqual([rule]);
  });

  it.each([
    'ALTER TABLE "payments" ADD COLUMN "memo" text;',
    'ALTER TABLE "payments" ADD COLUMN "memo" text DEFAULT \'\' NOT NULL;',
    'ALTER TABLE "payments" ADD COLUMN "n" integer GENERATED ALWAYS AS (amount * 2) STORED NOT NULL;',
    'ALTER TABLE "payments" ALTER COLUMN "memo" SET DEFAULT \'x\';',
    'ALTER TABLE "payments" ALTER COLUMN "memo" DROP NOT NULL;',
    'ALTER TABLE "payments" ADD CONSTRAINT "p_fk" FOREIGN KEY ("b") REFERENCES "businesses"("id");',
    'ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_balance_nonnegative";',
    'ALTER TABLE "payments" RENAME CONSTRAINT "a" TO "b";',
    'CREATE INDEX CONCURRENTLY "payments_memo_idx" ON "payments" ("memo");',
    'CREATE TABLE "t" ("id" text PRIMARY KEY NOT NULL, "note" text DEFAULT \'drop table x; rename\' NOT NULL);',
    "-- DROP TABLE payments; a comment says it, the migration does not\nSELECT 1;",
    "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN DROP TABLE x; RETURN NULL; END $$;",
  ])("lets through %s", (sql) => {
    expect(rules(sql)).toEqual([]);
  });

  it("a table created by the same migration may take NOT NULL columns and plain indexes", () => {
    const sql = [
      'CREATE TABLE "plans" ("id" text PRIMARY KEY NOT NULL);',
      '--> statement-breakpoint\nALTER TABLE "plans" ADD COLUMN "name" text NOT NULL;',
      '--> statement-breakpoint\nALTER TABLE "plans" ALTER COLUMN "name" SET NOT NULL;',
      '--> statement-breakpoint\nCREATE INDEX "plans_name_idx" ON "plans" USING btree ("name");',
      '--> statement-breakpoint\nCREATE INDEX "payments_plan_idx" ON "payments" USING btree ("plan");',
    ].join("\n");
    expect(lintMigrationSql(sql)).toEqual([
      {
        rule: "index-without-concurrently",
        statement: 'CREATE INDEX "payments_plan_idx" ON "payments" USING btree ("plan")',
      },
    ]);
  });

  it("reads each action of an ALTER TABLE with several", () => {
    expect(
      rules(
        'ALTER TABLE "p" ADD COLUMN "a" numeric(10, 2) DEFAULT 0 NOT NULL, DROP COLUMN "b", ADD "c" int NOT NULL;',
      ),
    ).toEqual(["drop", "not-null-without-default"]);
  });
});

describe("the lint over a migrations folder", () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  function folders(migrations: Record<string, string>, decisions: string[] = []) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kassa-migration-lint-"));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, "migrations"));
    fs.mkdirSync(path.join(dir, "decisions"));
    for (const [name, text] of Object.entries(migrations))
      fs.writeFileSync(path.join(dir, "migrations", name), text);
    for (const name of decisions) fs.writeFileSync(path.join(dir, "decisions", name), "# a decision\n");
    // The real folder's grandfathered migrations are expected everywhere: copy them in as they are.
    for (const tag of Object.keys(grandfathered))
      fs.copyFileSync(
        path.join(root, "db", "migrations", `${tag}.sql`),
        path.join(dir, "migrations", `${tag}.sql`),
      );
    return [path.join(dir, "migrations"), path.join(dir, "decisions")] as const;
  }

  const drop = 'ALTER TABLE "payments" DROP COLUMN "note";';

  it("refuses a breaking migration without a marker, naming the rule and the statement", () => {
    const problems = lintMigrationsFolder(...folders({ "0040_drop_note.sql": drop }));
    expect(problems).toHaveLength(1);
    expect(problems[0]!.migration).toBe("0040_drop_note.sql");
    expect(problems[0]!.message).toContain("drop: drops a table, column");
    expect(problems[0]!.message).toContain(drop.slice(0, -1));
  });

  it("accepts it with a marker naming a decision record that exists, and not with one that does not", () => {
    const marked = `-- kassa:breaking decision 0099: the contract step of 0098's expand\n${drop}`;
    expect(
      lintMigrationsFolder(...folders({ "0040_drop_note.sql": marked }, ["0099-contract-note.md"])),
    ).toEqual([]);
    const problems = lintMigrationsFolder(...folders({ "0040_drop_note.sql": marked }, ["0098-other.md"]));
    expect(problems.map((p) => p.message.split(":")[0])).toEqual([
      "its marker names decision 0099, which docs/decisions does not hold",
    ]);
  });

  it("a marked index on an existing table must read IF NOT EXISTS", () => {
    const marker = "-- kassa:breaking decision 0072\n";
    const plain = `${marker}CREATE INDEX "payments_note_idx" ON "payments" ("note");`;
    const guarded = `${marker}CREATE INDEX IF NOT EXISTS "payments_note_idx" ON "payments" ("note");`;
    expect(lintMigrationsFolder(...folders({ "0040_i.sql": guarded }, ["0072-x.md"]))).toEqual([]);
    const problems = lintMigrationsFolder(...folders({ "0040_i.sql": plain }, ["0072-x.md"]));
    expect(problems.map((p) => p.message.split("(")[0])).toEqual([
      "an index on an existing table must read CREATE INDEX IF NOT EXISTS, so it can be built CONCURRENTLY beforehand ",
    ]);
  });

  it("a grandfathered migration that changes, or is gone, is reported", () => {
    const [migrations, decisions] = folders({});
    const tag = Object.keys(grandfathered)[0]!;
    fs.appendFileSync(path.join(migrations, `${tag}.sql`), `\n--> statement-breakpoint\n${drop}`);
    const other = Object.keys(grandfathered)[1]!;
    fs.rmSync(path.join(migrations, `${other}.sql`));
    expect(
      lintMigrationsFolder(migrations, decisions).map((p) => [
        p.migration,
        p.message.split(" but breaks")[0],
      ]),
    ).toEqual([
      [`${tag}.sql`, "grandfathered for [index-without-concurrently]"],
      [`${other}.sql`, "grandfathered but no longer in the folder"],
    ]);
  });
});

describe("db/migrations", () => {
  it("passes the lint (npm run lint:migrations), with each grandfathered entry giving its reason", () => {
    const out = execFileSync(process.execPath, ["--import", "tsx", "scripts/lint-migrations.ts"], {
      cwd: root,
      encoding: "utf8",
    });
    expect(out).toContain("Migrations: expand-only, or marked");
    for (const entry of Object.values(grandfathered)) expect(entry.reason.length).toBeGreaterThan(40);
  });
});
