import type { ReactNode } from "react";
import { hostedPageCss } from "@/lib/checkout/hosted-page-css";
import { requestNonce } from "./checkout/branding";

// The hosted checkout's stylesheet (app/globals.css, the customer pages' own; the root layout loads
// none, the dashboard has Tailwind), inlined in a nonce'd <style> before the page's content: the
// page paints with its HTML, without waiting for a stylesheet request (decision 0033, fourth pass).
// Not a hoisted <style precedence>: React renders those without the nonce, which the CSP requires.
export default async function CheckoutLayout({ children }: { children: ReactNode }) {
  const nonce = await requestNonce();
  return (
    <>
      {/* The browser hides a nonce from the DOM once parsed: hydration sees an empty one. */}
      <style nonce={nonce} suppressHydrationWarning>
        {hostedPageCss()}
      </style>
      {children}
    </>
  );
}
