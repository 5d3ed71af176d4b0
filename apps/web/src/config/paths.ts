/** Every route path of spec §2 in one typed table. */
export const paths = {
  root: "/",
  home: "/home",
  login: "/auth/login",
  signup: "/auth/signup",
  signupSso: "/auth/signup-sso",
  ssoCallback: "/auth/sso-callback",
  magicLinkCallback: "/auth/magic-link-callback",
  completeSignupMagicLink: "/auth/complete-signup-magic-link",
  authNotFound: "/auth/404",
  resetPassword: "/reset-password",
  profile: "/profile",
  admin: "/admin",
} as const;
