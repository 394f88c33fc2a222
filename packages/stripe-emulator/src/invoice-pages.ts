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

const pageStyle =
  "body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;line-height:1.5}label,input,button{display:block;font-size:1rem}input{margin:.25rem 0 1rem;padding:.5rem;width:100%;box-sizing:border-box}button{padding:.6rem 1rem}";

/**
 * The hosted invoice page: the invoice's summary and, while it is open, a card form that pays it
 * (POST to the same address, answered with this page and the outcome's line).
 */
export function invoicePage(account: Account, invoice: Stripe.Invoice, outcome?: { paid: boolean; message: string }): string {
  const [title, ...rest] = summary(account, invoice);
  const action = `/_emulator/invoices/${encodeURIComponent(account.id)}/${encodeURIComponent(invoice.id ?? "")}`;
  const form =
    invoice.status === "open"
      ? `<form method="post" action="${escape(action)}"><label for="card_number">Card number (Stripe's test cards)</label><input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" value="4242424242424242" required><button type="submit">Pay ${escape(money(invoice.amount_remaining, invoice.currency))}</button></form>`
      : "";
  const line = outcome ? `<p role="status" data-paid="${outcome.paid}">${escape(outcome.message)}</p>` : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title ?? "")}</title><style>${pageStyle}</style></head><body><main><h1>${escape(title ?? "")}</h1>${line}${rest.map((text) => `<p>${escape(text)}</p>`).join("")}${form}<p><a href="${escape(invoice.invoice_pdf ?? "")}">Download PDF</a></p></main></body></html>`;
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
