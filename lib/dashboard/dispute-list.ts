import { and, asc, desc, eq, gt, lt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { businesses, disputeStatuses, disputes, sessions, type DisputeStatus } from "@/db/schema";
import { findDispute } from "@/lib/disputes/get-dispute";
import type { DisputeView } from "@/lib/disputes/dispute-schemas";
import { disputeView } from "@/lib/disputes/dispute-view";
import { businessNow } from "@/lib/clock";
import { isoMicros } from "@/lib/time";
import type { StatusTone } from "./format";

/** Each status as staff read it, and its colour. */
export const disputeStatusLabels: Record<DisputeStatus, { label: string; tone: StatusTone }> = {
  needs_response: { label: "Needs response", tone: "destructive" },
  warning_needs_response: { label: "Inquiry: needs response", tone: "warning" },
  under_review: { label: "Under review", tone: "secondary" },
  warning_under_review: { label: "Inquiry: under review", tone: "secondary" },
  won: { label: "Won", tone: "success" },
  lost: { label: "Lost", tone: "destructive" },
  warning_closed: { label: "Inquiry closed", tone: "outline" },
  prevented: { label: "Prevented", tone: "outline" },
};

const cursor = z.string().regex(/^dsp_[0-9A-Za-z]{1,64}$/, "Not a dispute cursor");
const blank = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

export const disputeFiltersSchema = z
  .object({
    status: z.preprocess(blank, z.enum(disputeStatuses, { error: "Unknown status" }).optional()),
    after: z.preprocess(blank, cursor.optional()),
    before: z.preprocess(blank, cursor.optional()),
  })
  .refine((f) => !(f.after && f.before), { path: ["after"], message: "Page forwards or backwards, not both" });
export type DisputeFilters = z.infer<typeof disputeFiltersSchema>;

/** The Disputes page's query string; bad input never throws: the page says so and lists without it. */
export function parseDisputeFilters(params: Record<string, string | string[] | undefined>): { filters: DisputeFilters; ignored: string | null } {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const raw = Object.fromEntries(["status", "after", "before"].map((k) => [k, first(params[k])]));
  const result = disputeFiltersSchema.safeParse(raw);
  if (result.success) return { filters: result.data, ignored: null };
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const single = disputeFiltersSchema.safeParse({ [key]: value });
    if (single.success && key !== "before") kept[key] = (single.data as Record<string, unknown>)[key];
  }
  return { filters: kept as DisputeFilters, ignored: result.error.issues.map((i) => `${String(i.path[0])}: ${i.message}`).join("; ") };
}

export type DisputeRow = DisputeView & { currency: string; order_id: string };
export type DisputePage = { data: DisputeRow[]; next: string | null; previous: string | null };

/** The business's disputes newest first, by status, paged both ways by id (as the subscriptions list). */
export async function listDisputesNewestFirst(db: Db, businessId: string, filters: DisputeFilters, limit = 25): Promise<DisputePage> {
  const where: SQL[] = [eq(disputes.businessId, businessId)];
  if (filters.status) where.push(eq(disputes.status, filters.status));
  const backwards = Boolean(filters.before);
  if (filters.after) where.push(lt(disputes.id, filters.after));
  if (filters.before) where.push(gt(disputes.id, filters.before));
  const rows = await db
    .select({ dispute: disputes, orderId: sessions.orderId })
    .from(disputes)
    .innerJoin(sessions, eq(sessions.id, disputes.sessionId))
    .where(and(...where))
    .orderBy(backwards ? asc(disputes.id) : desc(disputes.id))
    .limit(limit + 1);
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  if (backwards) page.reverse();
  const data = page.map((r) => ({ ...disputeView(r.dispute), currency: r.dispute.currency, order_id: r.orderId }));
  const firstId = data[0]?.id ?? null;
  const lastId = data.at(-1)?.id ?? null;
  return {
    data,
    next: backwards ? lastId : more ? lastId : null,
    previous: backwards ? (more ? firstId : null) : filters.after ? firstId : null,
  };
}

/** One dispute for its page, with the business's "now" (a sandbox clock may run ahead) for the countdown. */
export async function getDisputeDetail(db: Db, businessId: string, disputeId: string) {
  const dispute = await findDispute(db, businessId, disputeId);
  const [business] = await db.select().from(businesses).where(eq(businesses.id, businessId)).limit(1);
  const [session] = await db.select({ orderId: sessions.orderId }).from(sessions).where(eq(sessions.id, dispute.sessionId)).limit(1);
  return {
    dispute: { ...disputeView(dispute), currency: dispute.currency, order_id: session?.orderId ?? dispute.sessionId },
    closedAt: dispute.closedAt ? isoMicros(dispute.closedAt) : null,
    now: businessNow(business!).toISOString(),
  };
}
