import type { Metadata } from "next";
import type { ReactNode } from "react";
import styles from "./dashboard/_auth/auth-form.module.css";

export const metadata: Metadata = {
  title: { default: "Sign in · Kassa", template: "%s · Kassa" },
  robots: { index: false, follow: false },
};

// The sign-in and password pages (/dashboard/sign-in, …): outside the dashboard's shell and its
// loading states, so they work the same without JavaScript (decision 0018).
export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main id="main" tabIndex={-1} className={styles.main}>
      {children}
    </main>
  );
}
