import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { optionalStaff } from "@/lib/staff/current-staff";
import styles from "../_auth/auth-form.module.css";
import { safeCallbackUrl } from "../_auth/callback-url";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

const notices: Record<string, string> = {
  reset: "Your password was changed. Sign in with the new one.",
  signed_out: "You are signed out.",
  signed_out_everywhere: "You are signed out on every device.",
  joined: "You joined the business. Sign in to open its dashboard.",
};

// GET /dashboard/sign-in: e-mail and password for merchant staff and service support.
export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const callbackUrl = safeCallbackUrl(query.callbackUrl);
  if (await optionalStaff()) redirect(callbackUrl);
  // Auth.js's own routes (/api/auth/*) send refused requests here with ?error=.
  const notice =
    typeof query.notice === "string" ? notices[query.notice] : typeof query.error === "string" ? "Please sign in again." : undefined;
  return (
    <section className={styles.panel} aria-labelledby="sign-in-title">
      <h1 className={styles.title} id="sign-in-title">
        Sign in to Kassa
      </h1>
      <SignInForm callbackUrl={callbackUrl} notice={notice} />
    </section>
  );
}
