/** Where the router went: every navigation, superseded ones included, as the router itself saw it. */
export interface NavigatedLocation {
  pathname: string;
  search: string;
}

type NavigationListener = (location: NavigatedLocation) => void;

interface FollowableRouter {
  state: { location: NavigatedLocation };
  subscribe(listener: (state: { location: NavigatedLocation }) => void): () => void;
}

const listeners = new Set<NavigationListener>();
let latest: NavigatedLocation | null = null;

/**
 * Feeds each navigation of `router` to the listeners as it happens. The rendered location lags behind: router
 * updates render as transitions, and a navigation superseded before its page rendered (quick clicks, a lazy page
 * still loading) is never rendered at all, so whatever must see every navigation (the multi-page tabs) listens here.
 */
export function followRouter(router: FollowableRouter): () => void {
  latest = router.state.location;
  let last = router.state.location;
  return router.subscribe(({ location }) => {
    if (location === last) return;
    last = location;
    latest = location;
    for (const listener of listeners) listener(location);
  });
}

/** The router's newest location, or null when no router is followed. */
export function latestLocation(): NavigatedLocation | null {
  return latest;
}

export function onNavigation(listener: NavigationListener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
