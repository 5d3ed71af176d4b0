// What `react-router` is in the pre-render build (build/prerender-pages.ts points the module's
// imports here): the router module creates its browser router at load, and Node has no window,
// so the same routes go into a memory router that render-page.tsx navigates to the page drawn.
import { createMemoryRouter } from "react-router";

export * from "react-router";

export const createBrowserRouter: typeof createMemoryRouter = (routes, options) => createMemoryRouter(routes, options);
