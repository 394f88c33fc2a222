import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input, Label } from "@/components/ui/input";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime } from "@/lib/dashboard/format";
import { getDb } from "@/lib/db";
import { env } from "@/lib/env";
import { listMail } from "@/lib/mail/list-mail";
import { requireAdmin } from "@/lib/staff/current-staff";
import { isoMicros } from "@/lib/time";

export const metadata = { title: "Mailbox" };

const tone = { pending: "secondary", sent: "success", kept: "outline", failed: "destructive" } as const;

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
            <Table data-testid="mailbox">
              <TableCaption className="sr-only">E-mail, newest first</TableCaption>
              <TableHeader>
                <TableRow>
                  <TableHead scope="col">Written</TableHead>
                  <TableHead scope="col">To</TableHead>
                  <TableHead scope="col">Subject</TableHead>
                  <TableHead scope="col">Status</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {mail.data.map((m) => (
                  <TableRow key={m.id}>
                    <TableCell>{formatDateTime(isoMicros(m.createdAt))}</TableCell>
                    <TableCell className="break-all">{m.toAddress}</TableCell>
                    <TableCell>
                      <Link href={`/admin/mailbox/${m.id}`} className="text-primary underline-offset-4 hover:underline">
                        {m.subject}
                      </Link>
                    </TableCell>
                    <TableCell>
                      <Badge variant={tone[m.status]}>{m.status}</Badge>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
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
