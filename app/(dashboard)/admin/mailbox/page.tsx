import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, Label } from "@/components/ui/input";
import { DataTable, type DataTableColumn } from "@/components/ui/data-table";
import { formatDateTime } from "@/lib/dashboard/format";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";
import { listMail } from "@/lib/mail/list-mail";
import type { MailMessage } from "@/db/schema";
import { requireAdmin } from "@/lib/staff/current-staff";
import { isoMicros } from "@/lib/time";

export const metadata = { title: "Mailbox" };

const tone = { pending: "secondary", sent: "success", kept: "outline", failed: "destructive" } as const;

const columns: DataTableColumn<MailMessage>[] = [
  { id: "written", header: "Written", cell: (m) => formatDateTime(isoMicros(m.createdAt)) },
  { id: "to", header: "To", className: "break-all", cell: (m) => m.toAddress },
  {
    id: "subject",
    header: "Subject",
    cell: (m) => (
      <Link href={`/admin/mailbox/${m.id}`} className="text-primary underline-offset-4 hover:underline">
        {m.subject}
      </Link>
    ),
  },
  { id: "status", header: "Status", cell: (m) => <Badge variant={tone[m.status]}>{m.status}</Badge> },
];

// GET /admin/mailbox?to=&before=: every e-mail Kassa wrote, newest first; without SMTP_URL they are
// kept here instead of sent (decision 0044). Support only: the messages carry sign-in links.
export default async function MailboxPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireAdmin();
  const params = await searchParams;
  const to = typeof params.to === "string" && params.to.length <= 320 ? params.to : undefined;
  const before = typeof params.before === "string" && /^msg_[0-9A-Z]{26}$/.test(params.before) ? params.before : undefined;
  const mail = await listMail(await getDb(), { to, before });
  const smtp = Boolean(env().SMTP_URL);
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">Mailbox</h1>
      <Card>
        <CardHeader>
          <CardTitle>E-mail</CardTitle>
          <CardDescription>
            {smtp
              ? "Messages go out through the SMTP server (SMTP_URL); this is what was written, newest first."
              : "No SMTP server is configured (SMTP_URL): messages are kept here, not sent. Newest first."}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <form method="get" action="/admin/mailbox" role="search" aria-label="Find e-mail by recipient" className="flex flex-wrap items-end gap-2">
            <div className="grid gap-1.5">
              <Label htmlFor="mailbox-to">Recipient</Label>
              <Input id="mailbox-to" name="to" type="search" defaultValue={to ?? ""} autoComplete="off" />
            </div>
            <Button type="submit">Find</Button>
          </form>
          {mail.data.length === 0 ? (
            <p className="text-sm text-muted-foreground">No e-mail{to ? ` to ${to}` : ""}.</p>
          ) : (
            <DataTable data-testid="mailbox" caption="E-mail, newest first" cards={false} columns={columns} data={mail.data} rowKey={(m) => m.id} />
          )}
          {mail.nextBefore && (
            <p>
              <Link href={`/admin/mailbox?${new URLSearchParams({ ...(to ? { to } : {}), before: mail.nextBefore })}`} className="text-primary underline-offset-4 hover:underline">
                Older messages
              </Link>
            </p>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
