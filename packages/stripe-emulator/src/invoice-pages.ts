import type Stripe from "stripe";
import type { Account, Ctx } from "./state";

/** Where the emulator serves a finalized invoice's page and PDF (Stripe's hosted_invoice_url and invoice_pdf). */
export function invoicePageUrls(ctx: Ctx, invoiceId: string): { hosted: string; pdf: string } {
  const base = `${ctx.emu.baseUrl}/_emulator/invoices/${ctx.account.id}/${invoiceId}`;
  return { hosted: base, pdf: `${base}/pdf` };
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const money = (amount: number, currency: string) => `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;

function summary(account: Account, invoice: Stripe.Invoice): string[] {
  return [
    `Invoice ${invoice.number ?? invoice.id}`,
    `Account ${account.id} (Stripe emulator)`,
    `Status: ${invoice.status ?? "draft"}`,
    ...invoice.lines.data.map((line) => `${line.description ?? ""}: ${money(line.amount, invoice.currency)}`),
    `Amount due: ${money(invoice.amount_due, invoice.currency)}`,
    `Amount paid: ${money(invoice.amount_paid, invoice.currency)}`,
  ];
}

export function invoicePage(account: Account, invoice: Stripe.Invoice): string {
  const [title, ...rest] = summary(account, invoice);
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title ?? "")}</title></head><body><h1>${escape(title ?? "")}</h1>${rest.map((line) => `<p>${escape(line)}</p>`).join("")}<p><a href="${escape(invoice.invoice_pdf ?? "")}">Download PDF</a></p></body></html>`;
}

/** A one-page PDF 1.4 with the invoice's summary in Helvetica; offsets are computed so readers accept it. */
export function invoicePdf(account: Account, invoice: Stripe.Invoice): Buffer {
  const text = summary(account, invoice)
    .map(
      (line, i) =>
        `BT /F1 12 Tf 50 ${780 - i * 18} Td (${line.replace(/[\\()]/g, "\\$&").replace(/[^\x20-\x7e]/g, "?")}) Tj ET`,
    )
    .join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    `<< /Length ${Buffer.byteLength(text, "latin1")} >>\nstream\n${text}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(pdf, "latin1"));
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, "latin1");
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, "latin1");
}
