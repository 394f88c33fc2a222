import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { getTeamPage } from "@/lib/dashboard/get-team-page";
import { getDb } from "@/lib/db";
import { requireStaffFor, StaffForbiddenError } from "@/lib/staff/current-staff";
import { ApprovalThresholdForm } from "./approval-threshold-form";
import { InviteForm } from "./team-controls";
import { InvitationsCard, MembersCard, NotForYourRole } from "./team-lists";
import { RequireTwoFactorForm } from "./two-factor-controls";

export const metadata = { title: "Team" };

// GET /dashboard/team: members and their roles, open invitations, inviting (owners and support;
// decision 0044), and the four-eyes threshold on money leaving (decision 0078).
async function ownerOrAdmin() {
  try {
    return await requireStaffFor("team");
  } catch (error) {
    if (error instanceof StaffForbiddenError) return null;
    throw error;
  }
}

export default async function TeamPage() {
  const staff = await ownerOrAdmin();
  if (!staff) return <NotForYourRole />;
  const db = await getDb();
  const team = await getTeamPage(db, staff.businessId);
  const { threshold, twoFactor } = team;
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Team</h1>

      <Card>
        <CardHeader>
          <CardTitle>Invite someone</CardTitle>
          <CardDescription>
            They get an e-mail with a link that works once, for 7 days. Owners do everything; managers run the business day to day but hold no API keys and change no settings or team.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <InviteForm businessId={staff.businessId} />
        </CardContent>
      </Card>

      <MembersCard team={team} staff={staff} />

      <Card>
        <CardHeader>
          <CardTitle>Two-factor sign-in</CardTitle>
          <CardDescription>
            Required: every member must sign in with a code from an authenticator app too; those without it are sent to set it up before anything else.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <RequireTwoFactorForm businessId={staff.businessId} required={twoFactor.required} owner={staff.role === "owner"} />
        </CardContent>
      </Card>

      <InvitationsCard team={team} businessId={staff.businessId} />

      <Card>
        <CardHeader>
          <CardTitle>Four eyes on payouts</CardTitle>
          <CardDescription>
            Amounts add up per payee over 24 hours: an allocation to a payee waits on the Payouts page when that payee&apos;s allocations in the last 24 hours, this one
            included, come to more than this amount; a withdrawal approval likewise with the payee&apos;s withdrawals paid out. A second staff member approves it, never
            the one who asked.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ApprovalThresholdForm businessId={staff.businessId} threshold={threshold === null ? "" : (threshold / 100).toFixed(2)} />
        </CardContent>
      </Card>
    </div>
  );
}
