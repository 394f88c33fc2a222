import type { ReactNode } from "react";
import "../globals.css";
import "./receipt.css";

// The hosted receipt page: the customer pages' stylesheet, plus the receipt's print rules.
export default function ReceiptLayout({ children }: { children: ReactNode }) {
  return children;
}
