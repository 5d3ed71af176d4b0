-- Until now assigning a tier copied its limits into an enterprise quota, which then froze them.
-- A quota that still equals its user's tier is such a copy: removing it lets the user follow the
-- tier again (later tier edits apply, removing the tier removes them). A quota that differs was
-- changed by hand and stays as the user's explicit override.
DELETE FROM "enterprise_quotas" q
USING "users" u, "tiers" t
WHERE q."user_id" = u."id"
  AND u."tier_id" = t."id"
  AND q."max_assistants" = t."max_assistants"
  AND q."minutes_per_month" = t."minutes_per_month"
  AND q."concurrent_calls" = t."concurrent_calls"
  AND q."max_workspaces" = t."max_workspaces";
