import { ChevronLeft } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import QRCode from "qrcode";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { listLinkPayments } from "@/lib/dashboard/list-link-payments";
import { getDb } from "@/lib/db";
import { paymentLinkView } from "@/lib/payment-links/payment-link-schema";
import { linkUsage } from "@/lib/payment-links/link-uses";
import { getPaymentLink, PaymentLinkNotFoundError } from "@/lib/payment-links/set-payment-link-active";
import { requireStaffFor, staffMay } from "@/lib/staff/current-staff";
import { PaymentsTable } from "../../_components/payments-table";
import { LinkDetails } from "./link-details";
import { LinkToggle } from "./link-toggle";

export const metadata = { title: "Payment link" };

// GET /dashboard/payment-links/{id}: the link, its QR code, deactivate/reactivate, and its payments.
export default async function PaymentLinkPage({ params }: { params: Promise<{ id: string }> }) {
  const staff = await requireStaffFor("read");
  const { id } = await params;
  const db = await getDb();
  let row;
  try {
    row = await getPaymentLink(db, staff.businessId, id);
  } catch (error) {
    if (error instanceof PaymentLinkNotFoundError) notFound();
    throw error;
  }
  const usage = await linkUsage(db, row);
  const link = paymentLinkView(row, usage);
  const payments = await listLinkPayments(db, staff.businessId, link.id);
  const qr = await QRCode.toDataURL(link.url, { width: 512, margin: 2, errorCorrectionLevel: "M" });

  return (
    <div className="grid gap-6">
      <div className="grid gap-2">
        <Link href="/dashboard/payment-links" className="inline-flex w-fit items-center gap-1 text-sm text-primary underline-offset-4 hover:underline">
          <ChevronLeft aria-hidden className="size-4" /> Payment links
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight">{link.items[0]?.name ?? "Payment link"}</h1>
          <Badge variant={link.active ? "success" : "outline"}>{link.active ? "active" : "deactivated"}</Badge>
        </div>
        <p className="font-mono text-xs text-muted-foreground">{link.id}</p>
      </div>
      <LinkDetails link={link} usage={usage} qr={qr} />
      {staffMay(staff, "payment_links") && <LinkToggle key={String(link.active)} businessId={staff.businessId} linkId={link.id} active={link.active} />}
      <Card>
        <CardHeader>
          <CardTitle>Payments through this link</CardTitle>
        </CardHeader>
        <CardContent>
          <PaymentsTable payments={payments} caption="Newest first (the latest 100)." empty="No checkout was opened through this link yet." />
        </CardContent>
      </Card>
    </div>
  );
}
