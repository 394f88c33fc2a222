import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DetailItem } from "@/components/ui/detail-list";
import { formatDateTime } from "@/lib/dashboard/format";
import { formatMoney } from "@/lib/money";
import type { LinkUsage } from "@/lib/payment-links/link-uses";
import type { PaymentLinkView } from "@/lib/payment-links/payment-link-schema";

/** The link's fields, its uses, and its QR code (a data: URL made on the server). */
export function LinkDetails({ link, usage, qr }: { link: PaymentLinkView; usage: LinkUsage; qr: string }) {
  const bounds = link.adjustable_quantity;
  return (
      <Card>
        <CardHeader>
          <CardTitle>Link</CardTitle>
          <CardDescription>Each visit opens a new checkout; a reload within 30 minutes keeps the same one.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6 md:grid-cols-[1fr_auto]">
          <dl className="grid gap-3">
            <DetailItem label="URL">
              <a className="font-mono text-xs text-primary underline-offset-4 hover:underline" href={link.url} data-testid="link-url">
                {link.url}
              </a>
            </DetailItem>
            <DetailItem label="Amount">
              {formatMoney(link.amount, link.currency)}
              {link.subscription ? ` every ${link.subscription.interval_count} ${link.subscription.interval}(s)` : " (one-time)"}
            </DetailItem>
            <DetailItem label="Items">{link.items.map((item) => `${item.quantity} × ${item.name} at ${formatMoney(item.price, link.currency)}`).join(", ")}</DetailItem>
            <DetailItem label="Payer's quantity">{bounds ? `${bounds.minimum} to ${bounds.maximum} (?quantity= on the URL)` : "fixed"}</DetailItem>
            <DetailItem label="Uses">
              <span data-testid="link-uses">
                {link.uses}
                {link.max_uses !== null ? ` of ${link.max_uses}` : " (no limit)"}: {usage.paid} paid, {usage.open} open checkout{usage.open === 1 ? "" : "s"}
              </span>
              <span className="block text-xs text-muted-foreground">
                A use is a payment; an open checkout holds one until it is paid or expires. Visits that leave give theirs back.
              </span>
            </DetailItem>
            <DetailItem label="Expires">{link.expires_at ? formatDateTime(link.expires_at) : "never"}</DetailItem>
            <DetailItem label="Order ids">
              <span className="font-mono text-xs">{link.order_prefix}-1, -2, …</span>
            </DetailItem>
            <DetailItem label="Metadata">
              <span className="font-mono text-xs">{JSON.stringify(link.metadata)}</span>
            </DetailItem>
            <DetailItem label="Created">{formatDateTime(link.created_at)}</DetailItem>
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
  );
}
