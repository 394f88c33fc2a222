import { z } from "zod";
import { payoutUserStatuses, withdrawalStatuses } from "@/db/schema";
import { isSafeText, listLimitSchema, required, safeText } from "@/lib/http/validation";

export const maxPayoutAmount = 100_000_000;
export const maxEmailLength = 255;

/** Integer cents from 1 to 100000000 (the interface's payout limits), as a JSON number. */
export const payoutAmount = (field = "amount") =>
  z
    .number({ error: (i) => required(field)(i) ?? `${field} must be an integer number of cents` })
    .int({ error: `${field} must be an integer number of cents` })
    .min(1, { error: `${field} must be at least 1` })
    .max(maxPayoutAmount, { error: `${field} must be at most ${maxPayoutAmount}` });

/** E-mails compare case-insensitively: this is the identity of a payout user. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export const payoutEmail = z
  .string({ error: (i) => required("email")(i) ?? "email must be a string" })
  .refine(isSafeText, safeText)
  .trim()
  .min(1, { error: "email is required" })
  .max(maxEmailLength, { error: `email must be at most ${maxEmailLength} characters` })
  .pipe(z.email({ error: "email must be a valid e-mail address" }));

/** POST /payout/create. */
export const createPayoutSchema = z.object({ email: payoutEmail, amount: payoutAmount() });
export type CreatePayoutInput = z.infer<typeof createPayoutSchema>;

/** A payout user's withdrawal request (decision 0005). */
export const withdrawalSchema = z.object({
  amount: payoutAmount(),
  destination: z
    .string({ error: (i) => required("destination")(i) ?? "destination must be a string" })
    .refine(isSafeText, safeText)
    .trim()
    .min(1, { error: "destination is required" })
    .max(500, { error: "destination must be at most 500 characters" }),
  reference: z
    .string({ error: "reference must be a string" })
    .refine(isSafeText, safeText)
    .trim()
    .max(255, { error: "reference must be at most 255 characters" })
    .nullish(),
});
export type WithdrawalInput = z.infer<typeof withdrawalSchema>;

/** Optional body of the merchant's complete and reject calls. */
export const settleSchema = z.object({
  reason: z
    .string({ error: "reason must be a string" })
    .refine(isSafeText, safeText)
    .trim()
    .max(500, { error: "reason must be at most 500 characters" })
    .nullish(),
  settlement_reference: z
    .string({ error: "settlement_reference must be a string" })
    .refine(isSafeText, safeText)
    .trim()
    .max(255, { error: "settlement_reference must be at most 255 characters" })
    .nullish(),
});
export type SettleInput = z.infer<typeof settleSchema>;

const limitMessage = "limit must be an integer from 1 to 100";

/** `limit` (1-100, default 10) and `starting_after` (an id of the previous page): newest first. */
export const pageSchema = z.object({
  limit: z
    .union([z.number(), z.string().regex(/^\d+$/).transform(Number)], { error: limitMessage })
    .pipe(
      z
        .number()
        .int({ error: limitMessage })
        .min(1, { error: limitMessage })
        .max(100, { error: limitMessage }),
    )
    .optional()
    .transform((v) => v ?? 10)
    .meta({ ...listLimitSchema, example: 10 }),
  starting_after: z
    .string({ error: "starting_after must be a string" })
    .regex(/^[a-z]+_[0-9A-Z]{26}$/, { error: "starting_after must be an id from a previous page" })
    .optional()
    .meta({ description: "The last id of the previous page: the next page holds older items." }),
});
export type Page = z.infer<typeof pageSchema>;
export type Paginated<T> = { data: T[]; has_more: boolean };

/** Query of GET /payout/users. */
export const payoutUserListQuerySchema = pageSchema.extend({
  status: z
    .enum(payoutUserStatuses, { error: "status must be active or inactive" })
    .optional()
    .meta({ description: "Only active or only inactive payout users." }),
});

/** Query of a payout user's own GET /payout/operations/withdrawals. */
export const withdrawalListQuerySchema = pageSchema.extend({
  status: z
    .enum(withdrawalStatuses, { error: `status must be one of ${withdrawalStatuses.join(", ")}` })
    .optional()
    .meta({ description: "Only withdrawals in this status." }),
});

/** Query of the merchant's GET /payout/withdrawals: also by payout user. */
export const merchantWithdrawalListQuerySchema = withdrawalListQuerySchema.extend({
  payout_user: z
    .string()
    .optional()
    .meta({ description: "Only this payout user's withdrawals: its e-mail (any case) or `pu_` id; 404 if unknown." }),
});

/** The operations of POST /payout/operations, chosen by its `action` field. */
export const payoutActions = ["balance", "history", "withdraw", "cancel_withdrawal"] as const;

export const payoutActionSchema = z.object({
  action: z.enum(payoutActions, {
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? `action is required: one of ${payoutActions.join(", ")}`
        : `action must be one of ${payoutActions.join(", ")}`,
  }),
});

/** `cancel_withdrawal` of POST /payout/operations names the withdrawal in the body. */
export const cancelWithdrawalActionSchema = z.object({
  withdrawal_id: z
    .string({ error: "withdrawal_id is required" })
    .min(1, { error: "withdrawal_id is required" })
    .meta({ description: "The pending withdrawal to cancel (`wd_…`)." }),
});
