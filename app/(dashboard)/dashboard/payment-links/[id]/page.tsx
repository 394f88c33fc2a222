import { ChevronLeft } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import QRCode from "qrcode";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { formatDateTime } from "@/lib/dashboard/format";
import { listLinkPayments } from "@/lib/dashboard/list-link-payments";
import { getDb } from "@/lib/db";
import { formatMoney } from "@/lib/money";
import { paymentLinkView } from "@/lib/payment-links/payment-link-schema";
import { linkUsage } from "@/lib/payment-links/link-uses";
import { getPaymentLink, PaymentLinkNotFoundError } from "@/lib/payment-links/set-payment-link-active";
import { requireStaffFor, staffMay } from "@/lib/staff/current-staff";
import { PaymentsTable } from "../../_components/payments-table";
import { LinkToggle } from "./link-toggle";

export const metadata = { title: "Payment link" };

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-0.5 sm:grid-cols-[12rem_1fr] sm:gap-3">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="min-w-0 break-words text-sm">{children}</dd>
    </div>
  );
}

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
  const bounds = link.adjustable_quantity;

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
      <Card>
        <CardHeader>
          <CardTitle>Link</CardTitle>
          <CardDescription>Each visit opens a new checkout; a reload within 30 minutes keeps the same one.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6 md:grid-cols-[1fr_auto]">
          <dl className="grid gap-3">
            <Field label="URL">
              <a className="font-mono text-xs text-primary underline-offset-4 hover:underline" href={link.url} data-testid="link-url">
                {link.url}
              </a>
            </Field>
            <Field label="Amount">
              {formatMoney(link.amount, link.currency)}
              {link.subscription ? ` every ${link.subscription.interval_count} ${link.subscription.interval}(s)` : " (one-time)"}
            </Field>
            <Field label="Items">{link.items.map((item) => `${item.quantity} × ${item.name} at ${formatMoney(item.price, link.currency)}`).join(", ")}</Field>
            <Field label="Payer's quantity">{bounds ? `${bounds.minimum} to ${bounds.maximum} (?quantity= on the URL)` : "fixed"}</Field>
            <Field label="Uses">
              <span data-testid="link-uses">
                {link.uses}
                {link.max_uses !== null ? ` of ${link.max_uses}` : " (no limit)"}: {usage.paid} paid, {usage.open} open checkout{usage.open === 1 ? "" : "s"}
              </span>
              <span className="block text-xs text-muted-foreground">
                A use is a payment; an open checkout holds one until it is paid or expires. Visits that leave give theirs back.
              </span>
            </Field>
            <Field label="Expires">{link.expires_at ? formatDateTime(link.expires_at) : "never"}</Field>
            <Field label="Order ids">
              <span className="font-mono text-xs">{link.order_prefix}-1, -2, …</span>
            </Field>
            <Field label="Metadata">
              <span className="font-mono text-xs">{JSON.stringify(link.metadata)}</span>
            </Field>
            <Field label="Created">{formatDateTime(link.created_at)}</Field>
          </dl>
          <div className="grid justify-items-center gap-2">
            {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL made on the server */}
            <img src={qr} alt={`QR code of ${link.url}`} width={192} height={192} />
            <a className="text-sm text-primary underline-offset-4 hover:underline" href={qr} download={`payment-link-${link.id}.png`}>
              Download QR code (PNG)
            </a>
          </div>
        </CardContent>
      </Card>
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
