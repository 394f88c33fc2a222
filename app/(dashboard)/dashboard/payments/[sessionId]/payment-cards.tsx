import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DataTable, type DataTableColumn } from "@/components/ui/data-table";
import { DetailItem } from "@/components/ui/detail-list";
import { formatDateTime } from "@/lib/dashboard/format";
import type { PaymentDetail } from "@/lib/dashboard/get-payment-detail";
import { formatMoneyOrDash } from "@/lib/money";

type Item = PaymentDetail["payment"]["items"][number] & { i: number };
type Refund = PaymentDetail["refunds"][number];

function itemColumns(currency: string): DataTableColumn<Item>[] {
  return [
    { id: "name", header: "Name", className: "whitespace-normal", cell: (item) => item.name },
    { id: "quantity", header: "Quantity", className: "tabular-nums", cell: (item) => item.quantity },
    { id: "price", header: "Price", className: "tabular-nums", cell: (item) => formatMoneyOrDash(item.price, currency) },
  ];
}

function refundColumns(currency: string): DataTableColumn<Refund>[] {
  return [
    { id: "refund", header: "Refund", className: "font-mono text-xs", cell: (r) => r.id },
    { id: "amount", header: "Amount", className: "tabular-nums", cell: (r) => formatMoneyOrDash(r.amount, currency) },
    {
      id: "status",
      header: "Status",
      cell: (r) => <Badge variant={r.status === "succeeded" ? "success" : r.status === "failed" ? "destructive" : "outline"}>{r.status}</Badge>,
    },
    { id: "reason", header: "Reason", cell: (r) => r.reason.replaceAll("_", " ") },
    { id: "failure", header: "Why it failed", className: "whitespace-normal", cell: (r) => (r.status === "failed" ? (r.failureMessage ?? "Refused by the provider") : "—") },
  ];
}

/** The fields of the interface's Payment. */
export function PaymentFieldsCard({ detail }: { detail: PaymentDetail }) {
  const p = detail.payment;
  const money = (cents: number | null) => formatMoneyOrDash(cents, p.currency);
  return (
  <Card>
    <CardHeader>
      <CardTitle>Payment</CardTitle>
      <CardDescription>The fields of the Payment object (GET /payment/{"{session_id}"}).</CardDescription>
    </CardHeader>
    <CardContent>
      <dl className="divide-y">
        <DetailItem divided label="Session id" mono>{p.session_id}</DetailItem>
        <DetailItem divided label="Status">{p.status ?? "not paid yet"}</DetailItem>
        <DetailItem divided label="Amount">{money(p.amount)}</DetailItem>
        <DetailItem divided label="Fees">{money(p.fees)}</DetailItem>
        <DetailItem divided label="Net amount">{money(p.net_amount)}</DetailItem>
        <DetailItem divided label="Currency">{p.currency}</DetailItem>
        <DetailItem divided label="Order id">{p.order_id}</DetailItem>
        <DetailItem divided label="Customer">{p.customer}</DetailItem>
        <DetailItem divided label="Description">{p.description || "—"}</DetailItem>
        <DetailItem divided label="Payment method">{p.payment_method}</DetailItem>
        <DetailItem divided label="Provider">{p.provider}</DetailItem>
        <DetailItem divided label="Created">{p.created_at}</DetailItem>
        <DetailItem divided label="IP address">{p.ip}</DetailItem>
        <DetailItem divided label="Country">{p.country}</DetailItem>
        <DetailItem divided label="Browser (user agent)">{p.user_agent}</DetailItem>
      </dl>
    </CardContent>
  </Card>
  );
}

export function ItemsCard({ detail }: { detail: PaymentDetail }) {
  const p = detail.payment;
  return (
  <Card>
    <CardHeader>
      <CardTitle>Items</CardTitle>
    </CardHeader>
    <CardContent>
      <DataTable caption="Items" cards={false} columns={itemColumns(p.currency)} data={p.items.map((item, i) => ({ ...item, i }))} rowKey={(item) => item.i} />
    </CardContent>
  </Card>
  );
}

export function CustomerCard({ detail }: { detail: PaymentDetail }) {
  const p = detail.payment;
  const address = p.customer_details?.address;
  const card = p.payment_details?.card;
  return (
  <Card>
    <CardHeader>
      <CardTitle>Customer and payment details</CardTitle>
    </CardHeader>
    <CardContent>
      <dl className="divide-y">
        <DetailItem divided label="Name">{p.customer_details?.name}</DetailItem>
        <DetailItem divided label="E-mail">{p.customer_details?.email}</DetailItem>
        <DetailItem divided label="Phone">{p.customer_details?.phone}</DetailItem>
        <DetailItem divided label="Address">
          {address ? [address.line1, address.line2, address.postal_code, address.city, address.state, address.country].filter(Boolean).join(", ") || "—" : null}
        </DetailItem>
        <DetailItem divided label="Payment type">{p.payment_details?.type}</DetailItem>
        <DetailItem divided label="Card">
          {card ? `${card.brand} ···· ${card.last4}, expires ${card.exp_month}/${card.exp_year}${card.country ? `, ${card.country}` : ""}` : null}
        </DetailItem>
        <DetailItem divided label="Metadata" mono>
          {Object.keys(p.metadata ?? {}).length ? <pre className="whitespace-pre-wrap">{JSON.stringify(p.metadata, null, 2)}</pre> : null}
        </DetailItem>
      </dl>
    </CardContent>
  </Card>
  );
}

/** Screening, failure, what was refunded and each refund. */
export function RiskCard({ detail }: { detail: PaymentDetail }) {
  const { payment: p, internal, refunds } = detail;
  const money = (cents: number | null) => formatMoneyOrDash(cents, p.currency);
  return (
  <Card>
    <CardHeader>
      <CardTitle>Risk and refunds</CardTitle>
    </CardHeader>
    <CardContent>
      <dl className="divide-y">
        <DetailItem divided label="Fraud screening">
          {internal.fraudDecision ? `${internal.fraudDecision}${internal.fraudReasons.length ? ` (${internal.fraudReasons.join(", ")})` : ""}` : null}
        </DetailItem>
        <DetailItem divided label="Provider risk level">{internal.riskLevel}</DetailItem>
        <DetailItem divided label="Screening fee">{internal.screeningFee ? money(internal.screeningFee) : null}</DetailItem>
        <DetailItem divided label="Failure">{internal.failureCode ? `${internal.failureCode}: ${internal.failureMessage ?? ""}` : null}</DetailItem>
        <DetailItem divided label="Received (redirect methods)">{internal.amountReceived !== null ? money(internal.amountReceived) : null}</DetailItem>
        <DetailItem divided label="Refunded">{money(internal.refundedAmount)}</DetailItem>
        <DetailItem divided label="Session expires">{formatDateTime(internal.expiresAt)}</DetailItem>
      </dl>
      {refunds.length > 0 && (
        <DataTable caption="Refunds" cards={false} columns={refundColumns(p.currency)} data={refunds} rowKey={(r) => r.id} />
      )}
    </CardContent>
  </Card>
  );
}
