import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { formatDateTime } from "@/lib/dashboard/format";
import type { TeamPage } from "@/lib/dashboard/get-team-page";
import { InvitationControls, MemberControls } from "./team-controls";
import { ResetTwoFactorControl } from "./two-factor-controls";

/** Said instead of the page to a member whose role does not manage the team. */
export function NotForYourRole() {
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
}

/** The members, their roles and two-factor, and what this member may change about each. */
export function MembersCard({ team, staff }: { team: TeamPage; staff: { businessId: string; userId: string } }) {
  return (
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
                  {team.twoFactor.on.has(m.userId) && <Badge variant="secondary">two-factor</Badge>}
                  {m.userId === staff.userId && <span className="text-sm text-muted-foreground">(you)</span>}
                </p>
                <p className="text-sm text-muted-foreground">Member since {formatDateTime(m.joinedAt)}</p>
              </div>
              <div className="grid gap-2">
                <MemberControls businessId={staff.businessId} userId={m.userId} email={m.email} role={m.role} self={m.userId === staff.userId} />
                {team.twoFactor.on.has(m.userId) && m.userId !== staff.userId && <ResetTwoFactorControl businessId={staff.businessId} userId={m.userId} email={m.email} />}
              </div>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

export function InvitationsCard({ team, businessId }: { team: TeamPage; businessId: string }) {
  return (
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
                <InvitationControls businessId={businessId} invitationId={i.id} email={i.email} />
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
