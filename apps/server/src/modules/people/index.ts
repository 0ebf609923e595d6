export { peopleRoutes } from './routes.ts';
export { storePalmTemplate } from './palm-templates.ts';
