"use client";

import { setNonce } from "get-nonce";

/**
 * Radix's dialogs and menus lock scrolling with a <style> element they add at run time
 * (react-remove-scroll); the page's CSP admits <style> elements only with the request's nonce, so
 * hand it to them. Set while rendering, before any dialog can open.
 */
export function StyleNonce({ nonce }: { nonce: string | undefined }) {
  if (nonce && typeof window !== "undefined") setNonce(nonce);
  return null;
}
