import { z } from "zod";
import { Email, paged } from "./common.ts";
import { pageQuery } from "./page-query.ts";

export const Username = z
  .string()
  .trim()
  .min(3, "Username must be at least 3 characters")
  .max(40, "Username must be at most 40 characters")
  .regex(/^[a-zA-Z0-9_.-]+$/, "Use letters, digits, dot, dash or underscore");

/** Spec §3 "session user". */
export const SessionUser = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  username: z.string(),
  is_superuser: z.boolean(),
  profile_image_url: z.string().nullable(),
  sso_provider: z.string().nullable(),
  tier_id: z.string().nullable(),
  is_enterprise: z.boolean(),
  has_password: z.boolean(),
});
export type SessionUser = z.infer<typeof SessionUser>;

/** A user as superusers see them in admin lists. */
export const AdminUser = SessionUser.extend({
  is_active: z.boolean(),
  tier_name: z.string().nullable(),
  created_at: z.string(),
});
export type AdminUser = z.infer<typeof AdminUser>;
export const AdminUserPage = paged(AdminUser);
export type AdminUserPage = z.infer<typeof AdminUserPage>;

/** POST /user (superuser only). */
export const CreateUserBody = z.object({
  email: Email,
  username: Username,
  name: z.string().trim().min(1, "Name is required").max(120),
  password: z.string().min(8, "Password must be at least 8 characters").max(128),
  is_superuser: z.boolean().optional(),
});
export type CreateUserBody = z.infer<typeof CreateUserBody>;

export const UpdateProfileBody = z
  .object({
    name: z.string().trim().min(1, "Name is required").max(120),
    email: Email,
    username: Username,
  })
  .partial();
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;

export const ChangePasswordBody = z.object({
  /** Absent for accounts that never had a password (magic link or SSO only). */
  current_password: z.string().max(128).optional(),
  new_password: z.string().min(8, "Password must be at least 8 characters").max(128),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const AdminUsersQuery = z.object({
  ...pageQuery(100, 10),
  search: z.string().trim().max(200).optional(),
});
