/** What a sign-in or password form shows after a submission (with or without JavaScript). */
export type AuthFormState = {
  error?: string;
  notice?: string;
  email?: string;
  /** The sign-in asks for the second factor now (the password was right: decision 0048). */
  step?: "code";
};
