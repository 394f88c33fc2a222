import type { ReactNode } from "react";
import { hostedPageCss } from "@/lib/checkout/hosted-page-css";
import { requestNonce } from "./checkout/branding";
import { HostedPageStyle } from "./hosted-page-style";

// The hosted checkout's stylesheet (app/globals.css, the customer pages' own; the root layout loads
// none, the dashboard has Tailwind), inlined in a nonce'd <style> before the page's content: the
// page paints with its HTML, without waiting for a stylesheet request (decision 0033, fourth pass).
// Not a hoisted <style precedence>: React renders those without the nonce, which the CSP requires.
// The <style> is a client component's, its text read on the server from what hostedPageCss()
// registers: the text is then in the HTML only, not also in the RSC payload (fifth pass).
export default async function CheckoutLayout({ children }: { children: ReactNode }) {
  const nonce = await requestNonce();
  hostedPageCss();
  return (
    <>
      <HostedPageStyle nonce={nonce} />
      {children}
    </>
  );
}
