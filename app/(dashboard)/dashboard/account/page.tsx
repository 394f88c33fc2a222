import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { getDb } from "@/lib/db";
import { twoFactorStatus } from "@/lib/staff/manage-two-factor";
import { requireStaff } from "@/lib/staff/current-staff";
import { signOutEverywhereAction } from "./actions";
import { EmailForm } from "./email-form";
import { PasswordForm } from "./password-form";

export const metadata = { title: "Your account" };

// GET /dashboard/account: the signed-in user's e-mail, password and sessions (decisions 0044, 0052).
export default async function AccountPage() {
  const staff = await requireStaff();
  const twoFactor = await twoFactorStatus(await getDb(), { id: staff.userId, isAdmin: staff.isAdmin });
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Your account</h1>
      <p className="-mt-3 text-sm text-muted-foreground">
        Signed in as <strong>{staff.email}</strong>.
      </p>
      <Card>
        <CardHeader>
          <CardTitle>Password</CardTitle>
          <CardDescription>Changing it signs you out on every other device.</CardDescription>
        </CardHeader>
        <CardContent>
          <PasswordForm />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Change e-mail</CardTitle>
          <CardDescription>
            We send a link to the new address; your sign-in e-mail changes when you open it, and your other devices are signed out. Your current address gets a notice.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <EmailForm askCode={twoFactor.enabled} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Two-factor sign-in</CardTitle>
          <CardDescription>
            {twoFactor.enabled
              ? `On: signing in asks for a code from your authenticator app. ${twoFactor.recoveryCodesLeft} recovery code(s) left.`
              : "Off: signing in asks only for your password."}
            {twoFactor.required ? " Required for your account." : ""}
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Button asChild variant="outline">
            <Link href="/dashboard/account/two-factor">{twoFactor.enabled ? "Manage two-factor sign-in" : "Set up two-factor sign-in"}</Link>
          </Button>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Sessions</CardTitle>
          <CardDescription>Signed in on a device you no longer have, or a shared computer? End every session of your account at once, this one included.</CardDescription>
        </CardHeader>
        <CardContent>
          <form action={signOutEverywhereAction}>
            <Button type="submit" variant="outline">
              Sign out everywhere
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
