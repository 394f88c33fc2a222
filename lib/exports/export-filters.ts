import { z } from "zod";
import { ledgerAccountKinds, paymentStatuses, payoutUserStatuses, refundStatuses } from "@/db/schema";
import { createdRange, rangeInOrder } from "@/lib/http/instant-param";
import { isSafeText, parseOrThrow, safeText } from "@/lib/http/validation";
import { paymentDisputeFilters } from "@/lib/disputes/dispute-filter";

/** As the payments list: the interface's statuses, plus `open` (a session nobody has paid yet). */
const listStatuses = [...paymentStatuses, "open"] as const;

/** The five exports (`GET /exports/{kind}.csv`). */
export const exportKinds = [
  "payments",
  "refunds",
  "subscriptions",
  "payout-users",
  "ledger-entries",
] as const;
export type ExportKind = (typeof exportKinds)[number];

const range = createdRange;

const text = (name: string, max: number) =>
  z
    .string({ error: `${name} must be a string` })
    .max(max, { error: `${name} must be at most ${max} characters` })
    .refine(isSafeText, safeText)
    .optional();

/** Each export's query parameters: the date range and its list's filters (docs/api/exports.md). */
const shapes = {
  payments: {
    ...range,
    status: z.enum(listStatuses, { error: `status must be one of ${listStatuses.join(", ")}` }).optional(),
    method: z
      .string()
      .regex(/^[a-z0-9_]{1,40}$/, { error: "method must be a payment method name such as card" })
      .optional(),
    q: text("q", 200).meta({ description: "Session id, order id, customer id or e-mail (part of it)." }),
    dispute: z
      .enum(paymentDisputeFilters, { error: `dispute must be one of ${paymentDisputeFilters.join(", ")}` })
      .optional()
      .meta({
        description:
          "Only disputed payments: `any`, `open` (not decided), `needs_response`, `won` or `lost`. A disputed payment's `status` stays `succeeded`; `dispute_status` tells.",
      }),
  },
  refunds: {
    ...range,
    status: z
      .enum(refundStatuses, { error: `status must be one of ${refundStatuses.join(", ")}` })
      .optional(),
    session_id: z
      .string()
      .regex(/^cs_[0-9A-Za-z]{1,64}$/, { error: "session_id must be a session id" })
      .optional(),
  },
  subscriptions: {
    ...range,
    status: z
      .enum(["active", "past_due", "canceling", "canceled"], {
        error: "status must be one of active, past_due, canceling, canceled",
      })
      .optional(),
    customer: text("customer", 255),
  },
  "payout-users": {
    ...range,
    status: z.enum(payoutUserStatuses, { error: "status must be active or inactive" }).optional(),
  },
  "ledger-entries": {
    ...range,
    account: z
      .enum(ledgerAccountKinds, { error: `account must be one of ${ledgerAccountKinds.join(", ")}` })
      .optional()
      .meta({ description: "Only entries of this kind of account." }),
    kind: z
      .string()
      .regex(/^[a-z_]{1,40}$/, { error: "kind must be a transaction kind such as payment or refund" })
      .optional()
      .meta({
        description:
          "Only entries of transactions of this kind (`payment`, `refund`, `payout_allocation`, …).",
      }),
  },
} as const;

const withRange = <S extends z.ZodRawShape>(shape: S) =>
  z.object(shape).refine((v) => rangeInOrder[0](v as { created_from?: string }), rangeInOrder[1]);

export const exportQuerySchemas = {
  payments: withRange(shapes.payments),
  refunds: withRange(shapes.refunds),
  subscriptions: withRange(shapes.subscriptions),
  "payout-users": withRange(shapes["payout-users"]),
  "ledger-entries": withRange(shapes["ledger-entries"]),
};

export type ExportQuery<K extends ExportKind> = z.infer<(typeof exportQuerySchemas)[K]>;
export type AnyExportQuery = ExportQuery<ExportKind>;

export function isExportKind(value: string): value is ExportKind {
  return (exportKinds as readonly string[]).includes(value);
}

/** The query-string names an export reads (the others are ignored, as lists do). */
export function exportQueryNames(kind: ExportKind): string[] {
  return Object.keys(shapes[kind]);
}

/** An export's query string through its schema: unknown names ignored, empty values absent, else the 400. */
export function parseExportQuery<K extends ExportKind>(kind: K, params: URLSearchParams): ExportQuery<K> {
  const raw: Record<string, string> = {};
  for (const name of exportQueryNames(kind)) {
    const value = params.get(name);
    if (value) raw[name] = value;
  }
  return parseOrThrow(exportQuerySchemas[kind], raw) as ExportQuery<K>;
}
