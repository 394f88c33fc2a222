"use client";

import { setNonce } from "get-nonce";

/** The nonce of the document's own CSP, read once: later renders may carry another request's. */
let documentNonce: string | undefined;

/**
 * Radix's dialogs and menus lock scrolling with a <style> element they add at run time
 * (react-remove-scroll); the page's CSP admits <style> elements only with the nonce of the
 * document's response, so hand that one to them. A Server Action or client navigation re-renders
 * this layout from a later request, whose fresh nonce the document's policy does not know: it is
 * ignored. Next's own scripts carry the document's nonce (readable as a property, not an attribute);
 * the first render (hydration of the document) is the fallback.
 */
export function StyleNonce({ nonce }: { nonce: string | undefined }) {
  if (typeof window === "undefined" || documentNonce) return null;
  const script = document.querySelector<HTMLScriptElement>("script[nonce]");
  documentNonce = script?.nonce || nonce;
  if (documentNonce) setNonce(documentNonce);
  return null;
}
