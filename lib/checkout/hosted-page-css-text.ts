// The hosted page's inlined stylesheet as the server rendered it, for the client component that
// renders its <style> (app/(checkout)/hosted-page-style.tsx; decision 0033, fifth pass). The
// server's HTML carries the text once; a server component's <style> would carry it twice, since
// React also puts a server component's output in the page's data for hydration (the RSC payload).
// No Node module here: the browser bundle imports this file too.

/** Where lib/checkout/hosted-page-css.ts leaves the text for the server-side render of the page. */
export const hostedPageCssKey = Symbol.for("kassa.hostedPageCss");

/** The attribute that marks the inlined <style>, by which the browser finds the text it was sent. */
export const hostedPageStyleAttribute = "data-hosted-page-style";

/**
 * The text the <style> holds. On the server: the stylesheet the layout registered in this process
 * (hostedPageCss() runs before the client component renders, in the same request). In the browser,
 * while hydrating: the text the server's HTML brought, so React finds what it renders.
 */
export function hostedPageCssText(): string {
  if (typeof window === "undefined") {
    const css = (globalThis as Record<symbol, unknown>)[hostedPageCssKey];
    if (typeof css !== "string") throw new Error("hosted page stylesheet: not registered (hostedPageCss() must run first)");
    return css;
  }
  return document.querySelector(`style[${hostedPageStyleAttribute}]`)?.textContent ?? "";
}
