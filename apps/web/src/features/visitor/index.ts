export { VisitorRoutes } from './visitor-routes.tsx';
export { isVisitorPath } from './visitor-paths.ts';
export { hasVisitorToken } from './visitor-session.ts';
