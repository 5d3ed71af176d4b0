import { lazy, Suspense } from "react";
import { createBrowserRouter, Navigate, Outlet } from "react-router";
import { CenteredSpinner } from "../components/centered-spinner.tsx";
import { paths } from "../config/paths.ts";
import { AppLayout } from "./app-layout.tsx";
import { RequireAuth, VisitorOnly } from "./guards.tsx";

const LoginPage = lazy(() => import("../features/auth/pages/login-page.tsx"));
const HomePage = lazy(() => import("../features/home/pages/home-page.tsx"));

function VisitorFrame() {
  return (
    <VisitorOnly>
      <Suspense fallback={<CenteredSpinner />}>
        <Outlet />
      </Suspense>
    </VisitorOnly>
  );
}

export const router = createBrowserRouter([
  {
    path: "/auth",
    element: <VisitorFrame />,
    children: [
      { path: "login", element: <LoginPage /> },
      { path: "signup", element: <Navigate to={paths.login} replace /> },
      { path: "*", element: <Navigate to={paths.root} replace /> },
    ],
  },
  {
    path: "/",
    element: (
      <RequireAuth>
        <AppLayout />
      </RequireAuth>
    ),
    children: [
      { index: true, element: <Navigate to={paths.home} replace /> },
      { path: "home", element: <HomePage /> },
      { path: "*", element: <Navigate to={paths.root} replace /> },
    ],
  },
]);
