export { VisitorRoutes, isVisitorPath } from './visitor-routes.tsx';
export { hasVisitorToken } from './visitor-session.ts';
