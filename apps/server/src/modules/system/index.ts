export { systemRoutes } from './routes.ts';
export { createUser, deleteUser, setUserStatus, UserStatus } from './user-service.ts';
