/** What a sign-in or password form shows after a submission (with or without JavaScript). */
export type AuthFormState = { error?: string; notice?: string; email?: string };
