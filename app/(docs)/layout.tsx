import type { Metadata } from "next";
import type { ReactNode } from "react";

export const metadata: Metadata = {
  title: { default: "Kassa docs", template: "%s · Kassa" },
};

// /docs/*: public developer documentation, outside the dashboard (no Tailwind) and the hosted
// pages (no app/globals.css). The API reference brings Scalar's own stylesheet from its component.
export default function DocsLayout({ children }: { children: ReactNode }) {
  return children;
}
