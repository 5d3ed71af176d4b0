import { type ComponentType, createElement, lazy, useRef } from "react";

/** A lazily loaded component whose code can be fetched ahead of its first render. */
export type PreloadableComponent = ComponentType & { preload(): Promise<void> };

/**
 * React.lazy with preload(). React.lazy suspends on its first render even when the module has
 * long arrived (it learns so only from the promise, a turn later), so its Suspense boundary shows
 * the fallback for a frame; a component preloaded here renders at once. That is what lets the app
 * take over a page the build drew (the signed-in frame, boot.tsx) without a spinner in between.
 * Each mounted instance keeps the component it started with: swapping the lazy wrapper for the
 * loaded component later would be another element type to React, which would remount it.
 */
export function lazyWithPreload(load: () => Promise<{ default: ComponentType }>): PreloadableComponent {
  let loaded: ComponentType | undefined;
  let loading: Promise<void> | undefined;
  const preload = () => {
    loading ??= load().then(
      (module) => {
        loaded = module.default;
      },
      (error: unknown) => {
        // A failed download may succeed on the next attempt (a new deployment, a flaky link).
        loading = undefined;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(async () => {
    await preload();
    return { default: loaded as ComponentType };
  });
  function Preloadable() {
    const component = useRef<ComponentType>(loaded ?? Lazy);
    return createElement(component.current);
  }
  return Object.assign(Preloadable, { preload });
}
