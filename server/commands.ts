// The commands of `npx kassa` (automation contract: docs/automation.md), each run against a database
// handed in: the CLI's own, or the running server's (server/command-channel.ts).
import type { ParseArgsConfig } from "node:util";
import type { Db } from "@/db/client";
import { webhookEventTypes } from "@/db/schema";
import { createBusiness } from "@/lib/businesses/create-business";
import { listBusinesses } from "@/lib/businesses/list-businesses";
import { transferToPayoutBalance } from "@/lib/ledger/transfer-to-payout-balance";
import { formatLedgerReport, verifyLedger } from "@/lib/ledger/verify-ledger";
import { dataDir, env } from "@/lib/env";
import { ValidationError } from "@/lib/errors";
import { validateWebhookUrl } from "@/lib/webhooks/validate-webhook-url";
import { StaffInputError } from "@/lib/staff/errors";
import { postgresBackupAdvice } from "./backup-advice";
import { backupDatabase, BackupTargetExistsError, embeddedClient } from "./backup-database";
import { listenParseOptions, listenUsage } from "./listen-command";
import { stripeConnectCommand } from "./stripe-connect-command";
import { triggerCommand } from "./trigger-command";
import { UsageError } from "./usage-error";
import { userResetTwoFactorCommand } from "./user-two-factor-command";
import { demoLoginCommand, userCreateCommand, userDisableCommand, userListCommand, userRemoveCommand } from "./user-create-command";

type Options = ParseArgsConfig["options"];
export type Values = Record<string, string | boolean | undefined>;

export { UsageError };

export type Command = {
  usage: string;
  options: Options;
  /** The name one positional argument is stored under in the values (`trigger <kind>`); none by default. */
  positional?: string;
  run: (db: Db, values: Values) => Promise<{ json: unknown; text: string; exitCode?: number }>;
};

function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required`);
  return value.trim();
}

function oneOf<T extends string>(values: Values, name: string, allowed: readonly T[], fallback: T): T {
  const value = values[name];
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !allowed.includes(value as T))
    throw new UsageError(`--${name} must be one of ${allowed.join(", ")}`);
  return value as T;
}

/** A staff command's refusal (StaffInputError) as the CLI's usage error: exit 1, nothing changed. */
async function staffInput<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StaffInputError) throw new UsageError(error.message);
    throw error;
  }
}

export const commands: Record<string, Command> = {
  "business create": {
    usage:
      "kassa business create --name N [--mode sandbox|live] [--webhook-url U] [--events e1,e2] [--payouts on|off] [--json]",
    options: {
      name: { type: "string" },
      mode: { type: "string" },
      "webhook-url": { type: "string" },
      events: { type: "string" },
      payouts: { type: "string" },
    },
    run: async (db, values) => {
      const name = required(values, "name");
      const mode = oneOf(values, "mode", ["sandbox", "live"] as const, "sandbox");
      const payouts = oneOf(values, "payouts", ["on", "off"] as const, "off");
      let webhookUrl: string | undefined;
      if (typeof values["webhook-url"] === "string") {
        try {
          webhookUrl = validateWebhookUrl(values["webhook-url"], { field: "webhook-url" });
        } catch (error) {
          if (error instanceof ValidationError)
            throw new UsageError(`--webhook-url: ${Object.values(error.fields).flat().join("; ")}`);
          throw error;
        }
      }
      const events =
        typeof values.events === "string"
          ? values.events.split(",").map((e) => e.trim()).filter(Boolean)
          : ["succeeded"];
      const known: readonly string[] = webhookEventTypes;
      const unknown = events.filter((e) => !known.includes(e));
      if (unknown.length) throw new UsageError(`unknown event kinds: ${unknown.join(", ")} (known: ${known.join(", ")})`);
      const created = await createBusiness(db, {
        name,
        mode,
        webhookUrl: webhookUrl ?? null,
        webhookEvents: events,
        payoutsEnabled: payouts === "on",
      });
      const json = {
        id: created.business.id,
        secret_key: created.secretKey,
        public_key: created.publicKey,
        webhook_token: created.webhookToken,
        mode: created.business.mode,
      };
      const text = [
        `Created ${mode} business "${name}" (${json.id}).`,
        `  secret key     ${json.secret_key}`,
        `  public key     ${json.public_key}`,
        `  webhook token  ${json.webhook_token}`,
        "The keys are shown only now: store them.",
      ].join("\n");
      return { json, text };
    },
  },
  "business list": {
    usage: "kassa business list [--json]",
    options: {},
    run: async (db) => {
      const rows = await listBusinesses(db);
      const data = rows.map((b) => ({
        id: b.id,
        name: b.name,
        mode: b.mode,
        demo: b.isDemo,
        payouts: b.payoutsEnabled,
        webhook_url: b.webhookUrl,
        created_at: b.createdAt,
      }));
      const text = data.length
        ? data.map((b) => `${b.id}  ${b.mode.padEnd(7)}  ${b.name}${b.demo ? "  (demo)" : ""}`).join("\n")
        : "No businesses yet.";
      return { json: { data }, text };
    },
  },
  "stripe connect": {
    usage:
      "kassa stripe connect --business ID --key sk_live_…|rk_live_… [--webhook-secret whsec_…] [--publishable-key pk_live_…] [--json]",
    options: {
      business: { type: "string" },
      key: { type: "string" },
      "webhook-secret": { type: "string" },
      "publishable-key": { type: "string" },
    },
    run: (db, values) =>
      stripeConnectCommand(db, {
        businessId: required(values, "business"),
        secretKey: required(values, "key"),
        webhookSecret: typeof values["webhook-secret"] === "string" ? values["webhook-secret"].trim() : undefined,
        publishableKey: typeof values["publishable-key"] === "string" ? values["publishable-key"].trim() : undefined,
      }),
  },
  "user create": {
    usage: "kassa user create --email E --password P --business ID [--role owner|manager|admin] [--json]",
    options: { email: { type: "string" }, password: { type: "string" }, business: { type: "string" }, role: { type: "string" } },
    run: async (db, values) => {
      const role = oneOf(values, "role", ["owner", "manager", "admin"] as const, "owner");
      const password = values.password;
      if (typeof password !== "string" || password === "") throw new UsageError("--password is required");
      const businessId = role === "admin" && values.business === undefined ? null : required(values, "business");
      try {
        return await userCreateCommand(db, { email: required(values, "email"), password, businessId, role });
      } catch (error) {
        if (error instanceof StaffInputError) throw new UsageError(error.message);
        throw error;
      }
    },
  },
  "user list": {
    usage: "kassa user list [--business ID] [--json]",
    options: { business: { type: "string" } },
    run: (db, values) => userListCommand(db, { businessId: typeof values.business === "string" ? values.business.trim() : undefined }),
  },
  "user disable": {
    usage: "kassa user disable --email E [--json]",
    options: { email: { type: "string" } },
    run: (db, values) => staffInput(() => userDisableCommand(db, { email: required(values, "email"), enable: false })),
  },
  "user enable": {
    usage: "kassa user enable --email E [--json]",
    options: { email: { type: "string" } },
    run: (db, values) => staffInput(() => userDisableCommand(db, { email: required(values, "email"), enable: true })),
  },
  "user remove": {
    usage: "kassa user remove --email E [--business ID] [--json]",
    options: { email: { type: "string" }, business: { type: "string" } },
    run: (db, values) =>
      staffInput(() =>
        userRemoveCommand(db, { email: required(values, "email"), businessId: typeof values.business === "string" ? required(values, "business") : null }),
      ),
  },
  "user reset-2fa": {
    usage: "kassa user reset-2fa --email E [--json]",
    options: { email: { type: "string" } },
    run: (db, values) => staffInput(() => userResetTwoFactorCommand(db, { email: required(values, "email") })),
  },
  "demo login": {
    usage: "kassa demo login [--json]",
    options: {},
    run: (db) => demoLoginCommand(db),
  },
  "ledger verify": {
    usage: "kassa ledger verify [--business ID] [--json]",
    options: { business: { type: "string" } },
    run: async (db, values) => {
      const businessId = typeof values.business === "string" ? values.business : undefined;
      const report = await verifyLedger(db, { businessId });
      return { json: report, text: formatLedgerReport(report), exitCode: report.ok ? 0 : 1 };
    },
  },
  backup: {
    usage: "kassa backup --out FILE [--json]",
    options: { out: { type: "string" } },
    // Runs where the database is open: in the running server, which keeps serving meanwhile.
    run: async (db, values) => {
      const out = required(values, "out");
      const pglite = embeddedClient(db);
      if (!pglite) throw new UsageError(postgresBackupAdvice);
      try {
        const written = await backupDatabase(pglite, out);
        const key = env().ENCRYPTION_KEY ? "ENCRYPTION_KEY" : `${dataDir()}/encryption.key`;
        return {
          json: { out: written.path, bytes: written.bytes, encryption_key: key },
          text: [
            `Backed up the embedded database to ${written.path} (${written.bytes} bytes).`,
            `The backup holds secrets sealed, not their key: keep ${key} safe as well (kassa restore --key-file).`,
          ].join("\n"),
        };
      } catch (error) {
        if (error instanceof BackupTargetExistsError) throw new UsageError(error.message);
        throw error;
      }
    },
  },
  restore: {
    usage: "kassa restore --from FILE [--key-file PATH] [--json]",
    options: { from: { type: "string" }, "key-file": { type: "string" } },
    // The CLI runs restore itself, never a server (server/restore-command.ts): this entry gives it
    // its usage line and option parsing.
    run: () => Promise.reject(new UsageError("kassa restore runs in the CLI, with no server on DATA_DIR")),
  },
  trigger: {
    usage: "kassa trigger <kind> --business ID [--json]",
    options: { business: { type: "string" } },
    positional: "kind",
    run: (db, values) =>
      triggerCommand(db, { kind: typeof values.kind === "string" ? values.kind.trim() : undefined, businessId: required(values, "business") }),
  },
  listen: {
    usage: listenUsage,
    options: listenParseOptions,
    // A client of the HTTP API, run by the CLI itself and never by a server (server/listen-command.ts):
    // this entry gives it its usage line.
    run: () => Promise.reject(new UsageError("kassa listen runs in the CLI only")),
  },
  "payout-balance transfer": {
    usage: "kassa payout-balance transfer --business ID --amount CENTS [--json]",
    options: { business: { type: "string" }, amount: { type: "string" } },
    run: async (db, values) => {
      const businessId = required(values, "business");
      const raw = required(values, "amount");
      if (!/^\d+$/.test(raw)) throw new UsageError("--amount must be a whole number of cents");
      const balances = await transferToPayoutBalance(db, businessId, Number(raw));
      return {
        json: balances,
        text: `Moved ${raw} cents to the payout balance of ${businessId}: balance ${balances.balance}, payout balance ${balances.payout_balance}.`,
      };
    },
  },
};
