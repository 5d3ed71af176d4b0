// React Router, as a part of the app's code of its own (main.tsx evaluates the app a part per
// task). Importing the package itself there would keep every export it has; this module names one
// the app uses, so the bundler gives the library a chunk of its own with only what the app uses.
export { createBrowserRouter } from "react-router";
