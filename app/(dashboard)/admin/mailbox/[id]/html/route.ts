import { getDb } from "@/lib/db";
import { getMail } from "@/lib/mail/list-mail";
import { requireAdmin, StaffForbiddenError } from "@/lib/staff/current-staff";

// GET /admin/mailbox/{id}/html: a message's HTML part as the recipient's mail client would show it,
// under a policy that runs no script and loads only images (support only).
export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }) {
  try {
    await requireAdmin();
  } catch (error) {
    if (error instanceof StaffForbiddenError) return new Response(error.message, { status: 403, headers: { "content-type": "text/plain; charset=utf-8" } });
    throw error; // the redirect to the sign-in page
  }
  const mail = await getMail(await getDb(), (await params).id);
  if (!mail) return new Response("No such message", { status: 404, headers: { "content-type": "text/plain; charset=utf-8" } });
  return new Response(mail.htmlBody, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "default-src 'none'; img-src https: http: data:; style-src 'unsafe-inline'; frame-ancestors 'none'; form-action 'none'; base-uri 'none'",
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}
