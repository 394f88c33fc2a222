import type { ReactNode } from "react";
import "../globals.css";

// The customer-facing pages' own stylesheet (the root layout loads none; the dashboard has Tailwind).
export default function ManageLayout({ children }: { children: ReactNode }) {
  return children;
}
