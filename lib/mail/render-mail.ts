/** One e-mail's content: plain text plus simple HTML (decision 0044). */
export type MailContent = { subject: string; text: string; html: string };

/** What a message says, before it is dressed in the business's name and logo. */
export type MailParts = {
  subject: string;
  /** Paragraphs, in order; plain text (escaped for the HTML part). */
  paragraphs: string[];
  /** A button (HTML) and a line (text) with the link the reader should follow. */
  action?: { label: string; url: string };
  /** Small print under the action. */
  footnote?: string;
};

/** Who the message is from: the business (name, absolute logo URL) or Kassa itself. */
export type MailSender = { name: string; logoUrl?: string | null };

const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => escapes[c]!);
}

/** Renders the parts as text and as a small inline-styled HTML page (mail clients ignore <style>). */
export function renderMail(sender: MailSender, parts: MailParts): MailContent {
  const text = [
    sender.name,
    "",
    ...parts.paragraphs.flatMap((p) => [p, ""]),
    ...(parts.action ? [`${parts.action.label}: ${parts.action.url}`, ""] : []),
    ...(parts.footnote ? [parts.footnote, ""] : []),
    "Sent by Kassa.",
  ].join("\n");
  const logo = sender.logoUrl
    ? `<img src="${escapeHtml(sender.logoUrl)}" alt="${escapeHtml(sender.name)}" height="40" style="display:block;max-height:40px;margin:0 0 12px">`
    : "";
  const button = parts.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(parts.action.url)}" style="background:#2147c4;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600;display:inline-block">${escapeHtml(parts.action.label)}</a></p>
<p style="margin:0 0 16px;color:#4f5563;font-size:13px">Or paste this link into your browser: <a href="${escapeHtml(parts.action.url)}" style="color:#2147c4;word-break:break-all">${escapeHtml(parts.action.url)}</a></p>`
    : "";
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(parts.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f5f7;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1d2129;line-height:1.5">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #d9dce3;border-radius:12px;padding:24px">
${logo}<p style="margin:0 0 16px;font-weight:700;font-size:18px">${escapeHtml(sender.name)}</p>
${parts.paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join("\n")}
${button}${parts.footnote ? `<p style="margin:0;color:#4f5563;font-size:13px">${escapeHtml(parts.footnote)}</p>` : ""}
</div>
<p style="text-align:center;color:#4f5563;font-size:12px;margin:16px 0 0">Sent by Kassa.</p>
</body></html>`;
  return { subject: parts.subject, text, html };
}
