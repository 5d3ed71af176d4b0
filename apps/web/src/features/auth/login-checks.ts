import { PASSWORD_MAX_LENGTH } from "@parley/contract/constants";

// The sign-in page checks its three fields by hand, with the texts of the contract's LoginForm and
// MagicLinkRequest schemas (login-checks.test.ts holds them to those schemas): parsing with zod
// would put zod on the first load of the page every visitor opens first.

/** The contract's email pattern (zod's `z.email()`). */
const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const USERNAME_MAX_LENGTH = 254;
const EMAIL_MAX_LENGTH = 254;

export const LOGIN_TEXTS = {
  usernameRequired: "Enter your username or email",
  passwordRequired: "Enter your password",
  emailInvalid: "Enter a valid email address",
} as const;

/** The message for a value over `count` characters, in the interface's language (form-messages). */
export type TooLong = (count: number) => string;

/** A form's verdict: the values to send (trimmed as the schema would), or a message per bad field. */
export type Checked<Field extends string> =
  | { ok: true; values: Record<Field, string> }
  | { ok: false; errors: Partial<Record<Field, string>> };

function verdict<Field extends string>(
  values: Record<Field, string>,
  errors: Partial<Record<Field, string>>,
): Checked<Field> {
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, values };
}

/** LoginForm: a username or email (trimmed) and a password, both required. */
export function checkLogin(
  input: { username: string; password: string },
  tooLong: TooLong,
): Checked<"username" | "password"> {
  const username = input.username.trim();
  const errors: Partial<Record<"username" | "password", string>> = {};
  if (!username) errors.username = LOGIN_TEXTS.usernameRequired;
  else if (username.length > USERNAME_MAX_LENGTH) errors.username = tooLong(USERNAME_MAX_LENGTH);
  if (!input.password) errors.password = LOGIN_TEXTS.passwordRequired;
  else if (input.password.length > PASSWORD_MAX_LENGTH) errors.password = tooLong(PASSWORD_MAX_LENGTH);
  return verdict({ username, password: input.password }, errors);
}

/** MagicLinkRequest: one email address, trimmed and lower-cased before it is checked. */
export function checkMagicLink(input: { email: string }, tooLong: TooLong): Checked<"email"> {
  const email = input.email.trim().toLowerCase();
  const errors: Partial<Record<"email", string>> = {};
  if (email.length > EMAIL_MAX_LENGTH) errors.email = tooLong(EMAIL_MAX_LENGTH);
  else if (!EMAIL_PATTERN.test(email)) errors.email = LOGIN_TEXTS.emailInvalid;
  return verdict({ email }, errors);
}
