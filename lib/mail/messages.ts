import type { MailParts } from "./render-mail";

/** The staff invitation: who invites, to which business, with which role; the link works 7 days, once. */
export function invitationMail(input: { businessName: string; inviter: string | null; role: string; url: string; expiresAt: string }): MailParts {
  return {
    subject: `You are invited to ${input.businessName} on Kassa`,
    paragraphs: [
      `${input.inviter ?? "An owner"} invited you to join ${input.businessName} as ${input.role === "owner" ? "an owner" : "a manager"} in its Kassa dashboard.`,
      "Accept to choose a password (or to join with the account you already have).",
    ],
    action: { label: "Accept the invitation", url: input.url },
    footnote: `The link works once, until ${input.expiresAt.slice(0, 16).replace("T", " ")} UTC. If you did not expect it, ignore this e-mail.`,
  };
}

export function passwordResetMail(input: { url: string }): MailParts {
  return {
    subject: "Choose a new Kassa password",
    paragraphs: ["Someone (we hope you) asked to choose a new password for this Kassa account."],
    action: { label: "Choose a new password", url: input.url },
    footnote: "The link works once, for one hour. If you did not ask for it, ignore this e-mail: your password stays as it is.",
  };
}

export function newSignInMail(input: { at: string; ip: string | null; userAgent: string | null; accountUrl: string }): MailParts {
  return {
    subject: "New sign-in to your Kassa account",
    paragraphs: [
      `Your account was signed in to from a device it had not used before, at ${input.at.slice(0, 16).replace("T", " ")} UTC.`,
      `Address: ${input.ip ?? "unknown"}. Browser: ${input.userAgent?.slice(0, 200) ?? "unknown"}.`,
      "If it was you, there is nothing to do. If not, change your password at once and sign out everywhere from your account page.",
    ],
    action: { label: "Open your account page", url: input.accountUrl },
  };
}

export function twoFactorOffMail(input: { how: "disabled" | "reset"; accountUrl: string }): MailParts {
  return {
    subject: "Two-factor sign-in is off for your Kassa account",
    paragraphs: [
      input.how === "disabled"
        ? "Two-factor sign-in was turned off for your account, with your password and a code."
        : "An owner of your business (or service support) reset two-factor sign-in for your account; your sessions ended.",
      "If it was not you (or you did not ask for it), change your password at once and set up two-factor sign-in again from your account page.",
    ],
    action: { label: "Open your account page", url: input.accountUrl },
  };
}

/** To the NEW address: the link that makes it the account's sign-in e-mail (decision 0052). */
export function emailChangeMail(input: { oldEmail: string; newEmail: string; url: string; expiresAt: string }): MailParts {
  return {
    subject: "Confirm your new Kassa sign-in e-mail",
    paragraphs: [
      `The Kassa account ${input.oldEmail} asked to sign in with ${input.newEmail} from now on.`,
      "Confirm to make this address the account's sign-in e-mail. Until you do, nothing changes.",
    ],
    action: { label: "Confirm the new e-mail", url: input.url },
    footnote: `The link works once, until ${input.expiresAt.slice(0, 16).replace("T", " ")} UTC. If you did not expect it, ignore this e-mail.`,
  };
}

/** To the OLD address: a change was asked for (no link: the confirmation goes to the new address). */
export function emailChangeNoticeMail(input: { newEmail: string }): MailParts {
  return {
    subject: "A change of your Kassa sign-in e-mail was requested",
    paragraphs: [
      `Someone signed in to your Kassa account, with your password, asked to change its sign-in e-mail to ${input.newEmail}.`,
      "The change happens only when the link sent to that address is opened. If it was not you, sign in, change your password at once and sign out everywhere from your account page.",
    ],
  };
}

/** An owner notice: what happened, and where to act. */
export type OwnerNotice = { subject: string; paragraphs: string[]; action?: { label: string; url: string } };

export function ownerNoticeMail(notice: OwnerNotice): MailParts {
  return { ...notice, footnote: "You receive this as an owner of the business." };
}
