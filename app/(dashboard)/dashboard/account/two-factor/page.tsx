import Link from "next/link";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { getDb } from "@/lib/db";
import { requireStaffForTwoFactorSetUp } from "@/lib/staff/current-staff";
import { twoFactorStatus } from "@/lib/staff/manage-two-factor";
import { DisableTwoFactorForm, RecoveryCodesForm, TwoFactorSetUp } from "./two-factor-forms";

export const metadata = { title: "Two-factor sign-in" };
export const dynamic = "force-dynamic";

// GET /dashboard/account/two-factor: set up, or manage, the signed-in user's two-factor sign-in
// (decision 0048). Who must have it and does not is sent here before anything else (requireStaff).
export default async function TwoFactorPage() {
  const staff = await requireStaffForTwoFactorSetUp();
  const status = await twoFactorStatus(await getDb(), { id: staff.userId, isAdmin: staff.isAdmin });
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Two-factor sign-in</h1>
      {staff.twoFactorSetUpDue && (
        <p role="status" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm">
          {staff.isAdmin ? "Service support must use two-factor sign-in." : "A business you belong to requires two-factor sign-in."} Set it up to
          continue.
        </p>
      )}
      {status.enabled ? (
        <>
          <Card>
            <CardHeader>
              <CardTitle>Two-factor sign-in is on</CardTitle>
              <CardDescription>
                Signing in asks for a code from your authenticator app after your password. {status.recoveryCodesLeft} unused recovery code(s) left.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <RecoveryCodesForm account={staff.email} />
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Turn two-factor sign-in off</CardTitle>
              <CardDescription>
                {status.required ? "It is required of your account: you will be asked to set it up again at once. " : ""}Your password and a code are
                asked.
              </CardDescription>
            </CardHeader>
            <CardContent>
              <DisableTwoFactorForm />
            </CardContent>
          </Card>
        </>
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>Set up two-factor sign-in</CardTitle>
            <CardDescription>
              Use an authenticator app (Google Authenticator, 1Password, Aegis, …): it shows a new 6-digit code every 30 seconds, asked after your
              password when you sign in.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <TwoFactorSetUp account={staff.email} />
          </CardContent>
        </Card>
      )}
      <p className="text-sm">
        <Link href="/dashboard/account" className="underline underline-offset-4">
          Back to your account
        </Link>
      </p>
    </div>
  );
}
