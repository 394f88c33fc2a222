"use client";

import { hostedPageCssText, hostedPageStyleAttribute } from "@/lib/checkout/hosted-page-css-text";

/**
 * The hosted checkout's stylesheet in a nonce'd <style> (decision 0033, fourth and fifth passes).
 * A client component so that its text travels once, in the server's HTML: a server component's
 * <style> is in the RSC payload as well. The browser hides a nonce from the DOM once parsed:
 * hydration sees an empty one.
 */
export function HostedPageStyle({ nonce }: { nonce: string | undefined }) {
  return (
    <style nonce={nonce} {...{ [hostedPageStyleAttribute]: "" }} suppressHydrationWarning>
      {hostedPageCssText()}
    </style>
  );
}
