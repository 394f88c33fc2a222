import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { isLocale } from "@/lib/i18n/locales";

export const metadata: Metadata = { title: "Kassa", description: "Payments", icons: { icon: "/favicon.svg" } };
export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#f6f7f9" };

// No stylesheet here: each part of the site brings its own, so none leaks into another. The
// management and receipt pages (and the home page) import app/globals.css from their layouts, the
// hosted checkout inlines it (app/(checkout)/layout.tsx); the dashboard imports its Tailwind
// stylesheet from app/(dashboard)/dashboard/layout.tsx.
// Every page is rendered per request: proxy.ts gives each response a fresh CSP nonce, which Next
// puts on its scripts while rendering (a prerendered page would carry none and be blocked).
export default async function RootLayout({ children }: { children: ReactNode }) {
  const locale = (await headers()).get("x-kassa-locale");
  return (
    <html lang={isLocale(locale) ? locale : "en"}>
      <body>{children}</body>
    </html>
  );
}
