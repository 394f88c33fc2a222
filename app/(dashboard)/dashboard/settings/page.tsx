import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { getSettingsView } from "@/lib/dashboard/settings-actions";
import { getDb } from "@/lib/db";
import { getStripeConnection } from "@/lib/providers/stripe/get-stripe-connection";
import { requireStaffFor, StaffForbiddenError } from "@/lib/staff/current-staff";
import { staffLocale } from "../_components/staff-locale";
import { BrandingSettingsCard } from "./branding-card";
import { FraudSettingsCard } from "./fraud-card";
import { RecoverySettingsCard } from "./recovery-settings";
import {
  BusinessSettingsCard,
  PayoutsSettingsCard,
  ReceiptSettingsCard,
  StripeSettingsCard,
} from "./settings-cards";

export const metadata = { title: "Settings" };

async function ownerOrAdmin() {
  try {
    return await requireStaffFor("settings");
  } catch (error) {
    if (error instanceof StaffForbiddenError) return null;
    throw error;
  }
}

// GET /dashboard/settings: the business's settings and checkout branding (owner or support only).
export default async function SettingsPage() {
  const staff = await ownerOrAdmin();
  if (!staff)
    return (
      <div className="grid gap-6">
        <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
        <Card role="alert" className="max-w-xl">
          <CardHeader>
            <CardTitle>Only owners change settings</CardTitle>
            <CardDescription>
              Your role in this business does not allow it. Ask an owner of the business.
            </CardDescription>
          </CardHeader>
        </Card>
      </div>
    );
  const db = await getDb();
  const view = await getSettingsView(db, staff.businessId);
  const stripe = view.mode === "live" ? await getStripeConnection(db, staff.businessId) : null;
  const locale = await staffLocale();
  const business = staff.businessId;

  return (
    <div className="grid max-w-3xl gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Settings</h1>
      <BusinessSettingsCard view={view} business={business} />
      <ReceiptSettingsCard view={view} business={business} />
      <RecoverySettingsCard businessId={business} settings={view.recovery} />
      {stripe ? <StripeSettingsCard staff={staff} business={business} stripe={stripe} /> : null}
      <PayoutsSettingsCard view={view} />
      <BrandingSettingsCard view={view} business={business} />
      <FraudSettingsCard view={view} business={business} locale={locale} />
    </div>
  );
}
