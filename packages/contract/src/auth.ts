import { z } from "zod";
import { Email } from "./common.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./constants.ts";
import { SessionUser } from "./users.ts";
import { Workspace } from "./workspaces.ts";

export const Password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

/** POST /login, form-encoded. `username` accepts a username or an email address. */
export const LoginForm = z.object({
  username: z.string().trim().min(1, "Enter your username or email").max(254),
  password: z.string().min(1, "Enter your password").max(PASSWORD_MAX_LENGTH),
});
export type LoginForm = z.infer<typeof LoginForm>;

export const TokenResponse = z.object({ access_token: z.string(), token_type: z.literal("bearer") });
export type TokenResponse = z.infer<typeof TokenResponse>;

export const MagicLinkRequest = z.object({ email: Email });
export type MagicLinkRequest = z.infer<typeof MagicLinkRequest>;

export const EmailTokenBody = z.object({ token: z.string().min(16).max(200) });

/** Spec §3 "magic-link sign-in result". */
export const MagicLinkSignInResult = z.object({
  token: z.string(),
  workspaceId: z.string(),
  userName: z.string(),
  userEmail: z.string(),
});
export type MagicLinkSignInResult = z.infer<typeof MagicLinkSignInResult>;

export const MagicLinkSignupBody = z.object({
  token: z.string().min(16).max(200),
  name: z.string().trim().min(1).max(120).optional(),
});

/** Spec §3 "magic-link signup completion result". */
export const SignupCompletionResult = z.object({
  access_token: z.string(),
  user_info: SessionUser,
  workspace_id: z.string(),
  workspace_name: z.string(),
  workspaces: z.array(Workspace).optional(),
});
export type SignupCompletionResult = z.infer<typeof SignupCompletionResult>;

export const SsoProvider = z.enum(["google", "microsoft"]);
export type SsoProvider = z.infer<typeof SsoProvider>;

/** POST /sso/signup: completes a first SSO sign-up with the ticket the callback handed over. */
export const SsoSignupBody = z.object({
  signup_token: z.string().min(16).max(200),
  name: z.string().trim().min(1).max(120).optional(),
  username: z
    .string()
    .trim()
    .min(3)
    .max(40)
    .regex(/^[a-zA-Z0-9_.-]+$/, "Use letters, digits, dot, dash or underscore")
    .optional(),
});
export type SsoSignupBody = z.infer<typeof SsoSignupBody>;

export const PasswordResetRequest = z.object({ email: Email });
export const PasswordResetConfirm = z.object({ token: z.string().min(16).max(200), new_password: Password });
export type PasswordResetConfirm = z.infer<typeof PasswordResetConfirm>;

/** GET /auth/providers: which single sign-on buttons the login page should offer. */
export const AuthProviders = z.object({ google: z.boolean(), microsoft: z.boolean() });
export type AuthProviders = z.infer<typeof AuthProviders>;
