import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { formatDateTime } from "@/lib/dashboard/format";
import { getDb } from "@/lib/db";
import { getMail } from "@/lib/mail/list-mail";
import { requireAdmin } from "@/lib/staff/current-staff";
import { isoMicros } from "@/lib/time";

export const metadata = { title: "E-mail" };

/** The text part with its links clickable (the text is shown as text; only http(s) URLs become links). */
function TextWithLinks({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s<>"]+)/g);
  return (
    <pre tabIndex={0} className="overflow-auto whitespace-pre-wrap break-words rounded bg-muted p-3 text-sm" data-testid="mail-text">
      {parts.map((part, i) =>
        /^https?:\/\//.test(part) ? (
          <a key={i} href={part} className="text-primary underline">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </pre>
  );
}

// GET /admin/mailbox/{id}: one message, its text part, and a link to its HTML part.
export default async function MailPage({ params }: { params: Promise<{ id: string }> }) {
  await requireAdmin();
  const mail = await getMail(await getDb(), (await params).id);
  if (!mail) notFound();
  return (
    <div className="grid gap-6">
      <p>
        <Link href="/admin/mailbox" className="text-sm text-primary underline-offset-4 hover:underline">
          ← Mailbox
        </Link>
      </p>
      <h1 className="text-2xl font-semibold tracking-tight">{mail.subject}</h1>
      <Card>
        <CardHeader>
          <CardTitle>
            To {mail.toAddress} <Badge variant="outline">{mail.status}</Badge>
          </CardTitle>
          <CardDescription>
            Written {formatDateTime(isoMicros(mail.createdAt))} · {mail.kind.replaceAll("_", " ")} · Message-ID {mail.messageId}
            {mail.lastError ? ` · last error: ${mail.lastError}` : ""}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-3">
          <TextWithLinks text={mail.textBody} />
          <p className="text-sm">
            <a href={`/admin/mailbox/${mail.id}/html`} className="text-primary underline-offset-4 hover:underline">
              Open the HTML version
            </a>
          </p>
        </CardContent>
      </Card>
    </div>
  );
}
