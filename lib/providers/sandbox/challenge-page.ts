const escape = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

/**
 * The 3-D Secure challenge of a sandbox card payment, served by Kassa itself (the emulator's own
 * page listens on a loopback port a remote payer cannot reach): Complete or Fail, posted back.
 */
export function challengePage(input: { amount: string; merchant: string; notice?: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>3-D Secure test page</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
button{font-size:1rem;padding:.6rem 1rem;margin-right:.5rem;cursor:pointer}.note{background:#fff4d6;padding:.5rem .75rem;border-radius:.25rem}</style></head>
<body><h1>3-D Secure test page</h1>
<p>Sandbox: authenticate the payment of ${escape(input.amount)} to ${escape(input.merchant)}. No real bank is involved.</p>
${input.notice ? `<p class="note">${escape(input.notice)}</p>` : ""}
<form method="post"><button name="outcome" value="succeed">Complete</button><button name="outcome" value="fail">Fail</button></form>
</body></html>`;
}
