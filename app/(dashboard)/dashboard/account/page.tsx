import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { requireStaff } from "@/lib/staff/current-staff";
import { signOutEverywhereAction } from "./actions";
import { PasswordForm } from "./password-form";

export const metadata = { title: "Your account" };

// GET /dashboard/account: the signed-in user's password and sessions (decision 0044).
export default async function AccountPage() {
  const staff = await requireStaff();
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
