import type { ReactNode } from "react";
import { Navigate, useLocation } from "react-router";
import { CenteredSpinner } from "../components/centered-spinner.tsx";
import { paths } from "../config/paths.ts";
import { useAuth } from "../lib/auth-context.ts";

/** Signed-in routes: visitors go to login, which returns them here afterwards. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();
  if (status === "loading") return <CenteredSpinner />;
  if (status !== "authenticated") {
    return <Navigate to={paths.login} replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  return children;
}

/** Visitor-only routes: a signed-in visitor goes to /home. */
export function VisitorOnly({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  if (status === "loading") return <CenteredSpinner />;
  if (status === "authenticated") return <Navigate to={paths.home} replace />;
  return children;
}

/** Admin routes: signed in, plus the superuser flag. */
export function RequireSuperuser({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  if (!user?.is_superuser) return <Navigate to={paths.home} replace />;
  return children;
}
