import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DataTable, type DataTableColumn } from "@/components/ui/data-table";
import { formatDateTime } from "@/lib/dashboard/format";
import { getDb } from "@/lib/db";
import { formatMoney } from "@/lib/money";
import { listPaymentLinksNewestFirst } from "@/lib/payment-links/list-payment-links";
import type { PaymentLinkView } from "@/lib/payment-links/payment-link-schema";
import { requireStaffFor, staffMay } from "@/lib/staff/current-staff";
import { CreateLinkForm } from "./create-link-form";

export const metadata = { title: "Payment links" };

const columns: DataTableColumn<PaymentLinkView>[] = [
  {
    id: "link",
    header: "Link",
    cell: (link) => (
      <>
        <Link className="text-primary underline-offset-4 hover:underline" href={`/dashboard/payment-links/${link.id}`}>
          {link.items[0]?.name ?? link.id}
        </Link>
        <div className="font-mono text-xs text-muted-foreground">{link.url}</div>
      </>
    ),
  },
  {
    id: "amount",
    header: "Amount",
    cell: (link) => (
      <>
        {formatMoney(link.amount, link.currency)}
        {link.subscription ? ` every ${link.subscription.interval_count > 1 ? `${link.subscription.interval_count} ` : ""}${link.subscription.interval}` : ""}
      </>
    ),
  },
  { id: "status", header: "Status", cell: (link) => <Badge variant={link.active ? "success" : "outline"}>{link.active ? "active" : "deactivated"}</Badge> },
  {
    id: "uses",
    header: "Uses (payments and open checkouts)",
    cell: (link) => (
      <>
        {link.uses}
        {link.max_uses !== null ? ` / ${link.max_uses}` : ""}
      </>
    ),
  },
  { id: "created", header: "Created", cell: (link) => formatDateTime(link.created_at) },
];

// GET /dashboard/payment-links: the business's links, newest first, and the form to make one.
export default async function PaymentLinksPage() {
  const staff = await requireStaffFor("read");
  const links = await listPaymentLinksNewestFirst(await getDb(), staff.businessId);
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Payment links</h1>
      {staffMay(staff, "payment_links") && (
        <Card>
          <CardHeader>
            <CardTitle>New link</CardTitle>
            <CardDescription>
              A reusable address: each visit opens a new checkout for this item (or plan). Share it, print its QR code, no code needed.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <CreateLinkForm businessId={staff.businessId} />
          </CardContent>
        </Card>
      )}
      <Card>
        <CardContent className="pt-6">
          <DataTable
            caption={links.length ? "Newest first (the latest 200)." : "No payment links yet."}
            showCaption
            cards={false}
            columns={columns}
            data={links}
            rowKey={(link) => link.id}
          />
        </CardContent>
      </Card>
    </div>
  );
}
