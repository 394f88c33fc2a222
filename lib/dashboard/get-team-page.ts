import type { Db } from "@/db/client";
import { approvalThresholdOf } from "@/lib/payouts/payout-approvals";
import { teamTwoFactor } from "@/lib/staff/manage-two-factor";
import { getTeamView, type TeamView } from "./team-actions";

export type TeamPage = TeamView & {
  /** The four-eyes threshold on money leaving, in cents; null when there is none. */
  threshold: number | null;
  twoFactor: { required: boolean; on: Set<string> };
};

/** What the team page shows: members, open invitations, the payout threshold and who has two-factor on. */
export async function getTeamPage(db: Db, businessId: string): Promise<TeamPage> {
  const [team, threshold] = await Promise.all([getTeamView(db, businessId), approvalThresholdOf(db, businessId)]);
  const twoFactor = await teamTwoFactor(
    db,
    businessId,
    team.members.map((m) => m.userId),
  );
  return { ...team, threshold, twoFactor };
}
