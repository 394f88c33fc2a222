/** A staff command or form got input it cannot use; nothing was changed. */
export class StaffInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StaffInputError";
  }
}

/** `user create` for an existing user with another password: the password is never changed that way. */
export class ExistingUserPasswordError extends Error {
  constructor(readonly email: string) {
    super(
      `A user ${email} already exists and --password does not match their password; nothing was changed (the CLI never changes an existing user's password: use the password reset page)`,
    );
    this.name = "ExistingUserPasswordError";
  }
}

/** Too many failed sign-ins (or reset requests) for this e-mail or from this address. */
export class LoginRateLimitedError extends Error {
  constructor(
    readonly limitedKey: "email" | "ip",
    readonly retryAfterSeconds: number,
  ) {
    super(`Too many attempts; try again in ${Math.ceil(retryAfterSeconds / 60)} min`);
    this.name = "LoginRateLimitedError";
  }
}
