import type { Metadata } from "next";
import Link from "next/link";
import { getDb } from "@/lib/db";
import { findUserByEmail } from "@/lib/staff/create-user";
import { findInvitationByToken } from "@/lib/staff/invitations";
import { passwordMinLength } from "@/lib/staff/password";
import styles from "../_auth/auth-form.module.css";
import { InvitationForm } from "./invitation-form";

export const metadata: Metadata = { title: "Join a business", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

// GET /dashboard/invitation?token=…: the link of a staff invitation (decision 0044).
export default async function InvitationPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { token } = await searchParams;
  const db = await getDb();
  const found = typeof token === "string" ? await findInvitationByToken(db, token) : null;
  if (!found || typeof token !== "string")
    return (
      <section className={styles.panel} aria-labelledby="invitation-title">
        <h1 className={styles.title} id="invitation-title">
          This invitation cannot be used
        </h1>
        <p className={styles.lead} role="alert">
          The link is invalid, already used, revoked or expired (invitations work for 7 days, once). Ask an owner of the business to invite you again.
        </p>
        <p className={styles.links}>
          <Link className={styles.link} href="/dashboard/sign-in">
            Sign in
          </Link>
        </p>
      </section>
    );
  const existing = Boolean(await findUserByEmail(db, found.invitation.email));
  return (
    <section className={styles.panel} aria-labelledby="invitation-title">
      <h1 className={styles.title} id="invitation-title">
        Join {found.businessName}
      </h1>
      <p className={styles.lead}>
        You are invited as {found.invitation.role === "owner" ? "an owner" : "a manager"}, as <strong>{found.invitation.email}</strong>.{" "}
        {existing ? "This e-mail already has a Kassa account: enter its password to join." : "Choose a password for your new account."}
      </p>
      <InvitationForm token={token} existing={existing} minLength={passwordMinLength} />
    </section>
  );
}
