/** Announced once a pre-rendered page's forms are React's (hydrated); main.tsx holds submits until then. */
export const FORMS_LIVE_EVENT = "parley:forms-live";
