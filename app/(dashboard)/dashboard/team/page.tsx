import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { formatDateTime } from "@/lib/dashboard/format";
import { getTeamView } from "@/lib/dashboard/team-actions";
import { getDb } from "@/lib/db";
import { approvalThresholdOf } from "@/lib/payouts/payout-approvals";
import { requireStaffFor, StaffForbiddenError } from "@/lib/staff/current-staff";
import { ApprovalThresholdForm } from "./approval-threshold-form";
import { teamTwoFactor } from "@/lib/staff/manage-two-factor";
import { InvitationControls, InviteForm, MemberControls } from "./team-controls";
import { RequireTwoFactorForm, ResetTwoFactorControl } from "./two-factor-controls";

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
  if (!staff)
    return (
      <div className="grid gap-6">
        <h1 className="text-2xl font-semibold tracking-tight">Team</h1>
        <Card role="alert" className="max-w-xl">
          <CardHeader>
            <CardTitle>Only owners manage the team</CardTitle>
            <CardDescription>Your role in this business does not invite people or change roles. Ask an owner of the business.</CardDescription>
          </CardHeader>
        </Card>
      </div>
    );
  const db = await getDb();
  const [team, threshold] = await Promise.all([getTeamView(db, staff.businessId), approvalThresholdOf(db, staff.businessId)]);
  const twoFactor = await teamTwoFactor(
    db,
    staff.businessId,
    team.members.map((m) => m.userId),
  );
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

      <Card>
        <CardHeader>
          <CardTitle>Members</CardTitle>
          <CardDescription>A business always keeps at least one owner.</CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-3" aria-label="Members">
            {team.members.map((m) => (
              <li key={m.userId} className="grid gap-2 rounded-md border p-3 sm:grid-cols-[1fr_auto] sm:items-center">
                <div className="grid gap-1">
                  <p className="flex flex-wrap items-center gap-2 font-medium">
                    <span className="break-all">{m.email}</span>
                    <Badge variant={m.role === "owner" ? "default" : "secondary"}>{m.role}</Badge>
                    {m.disabled && <Badge variant="destructive">disabled</Badge>}
                    {twoFactor.on.has(m.userId) && <Badge variant="secondary">two-factor</Badge>}
                    {m.userId === staff.userId && <span className="text-sm text-muted-foreground">(you)</span>}
                  </p>
                  <p className="text-sm text-muted-foreground">Member since {formatDateTime(m.joinedAt)}</p>
                </div>
                <div className="grid gap-2">
                  <MemberControls businessId={staff.businessId} userId={m.userId} email={m.email} role={m.role} self={m.userId === staff.userId} />
                  {twoFactor.on.has(m.userId) && m.userId !== staff.userId && <ResetTwoFactorControl businessId={staff.businessId} userId={m.userId} email={m.email} />}
                </div>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>

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

      <Card>
        <CardHeader>
          <CardTitle>Open invitations</CardTitle>
          <CardDescription>Resending makes a new link and 7 more days; the earlier link stops working.</CardDescription>
        </CardHeader>
        <CardContent>
          {team.invitations.length === 0 ? (
            <p className="text-sm text-muted-foreground">No open invitations.</p>
          ) : (
            <ul className="grid gap-3" aria-label="Open invitations">
              {team.invitations.map((i) => (
                <li key={i.id} className="grid gap-2 rounded-md border p-3 sm:grid-cols-[1fr_auto] sm:items-center">
                  <div className="grid gap-1">
                    <p className="flex flex-wrap items-center gap-2 font-medium">
                      <span className="break-all">{i.email}</span>
                      <Badge variant="secondary">{i.role}</Badge>
                      {i.expired && <Badge variant="destructive">expired</Badge>}
                    </p>
                    <p className="text-sm text-muted-foreground">
                      Invited by {i.invitedBy ?? "an owner"}; {i.expired ? "expired" : "expires"} {formatDateTime(i.expiresAt)}
                    </p>
                  </div>
                  <InvitationControls businessId={staff.businessId} invitationId={i.id} email={i.email} />
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

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
