import type { SandboxProviderPayment } from "@/db/schema";
import { formatMoney } from "./format";

const escape = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

const methodNames: Record<string, string> = { bitcoin: "Bitcoin", pix_br: "Pix" };

/**
 * The sandbox provider's own page (plain server-rendered HTML, no script): the payer pays,
 * underpays (half of what is due) or fails; each button posts back to the same URL.
 */
export function simulatorPage(payment: SandboxProviderPayment, notice?: string): string {
  const due = payment.amount - payment.amountPaid;
  const name = methodNames[payment.method] ?? payment.method;
  const open = payment.status === "open" || payment.status === "underpaid";
  const rows = [
    ["Amount", formatMoney(payment.amount, payment.currency)],
    ["Received", formatMoney(payment.amountPaid, payment.currency)],
    ["Still due", formatMoney(due, payment.currency)],
    ["Status", payment.status],
  ]
    .map(([k, v]) => `<tr><th>${escape(k!)}</th><td>${escape(v!)}</td></tr>`)
    .join("");
  const buttons = open
    ? `<form method="post">
<button name="action" value="pay">Pay ${escape(formatMoney(due, payment.currency))}</button>
${due > 1 ? `<button name="action" value="underpay">Underpay (send ${escape(formatMoney(Math.floor(due / 2), payment.currency))})</button>` : ""}
${payment.amountPaid === 0 ? `<button name="action" value="fail">Fail</button>` : ""}
</form>`
    : `<p><a href="${escape(payment.returnUrl)}">Back to the merchant</a></p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox ${escape(name)} payment</title>
<style>body{font-family:system-ui,sans-serif;max-width:30rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
table{border-collapse:collapse;margin:1rem 0}th{text-align:left;padding:.25rem 1rem .25rem 0;color:#555;font-weight:500}
button{font-size:1rem;padding:.6rem 1rem;margin:.25rem .5rem .25rem 0;cursor:pointer}.note{background:#fff4d6;padding:.5rem .75rem;border-radius:.25rem}</style></head>
<body><h1>Sandbox ${escape(name)}</h1>
<p>Test provider: no real money moves. ${payment.description ? escape(payment.description) : ""}</p>
${notice ? `<p class="note">${escape(notice)}</p>` : ""}
<table>${rows}</table>
${buttons}
</body></html>`;
}
