export { systemRoutes } from './routes.ts';
export { createUser, deleteUser, setUserStatus, UserStatus } from './user-service.ts';
export { startSession } from './login-service.ts';
export { findActiveUserById, findActiveUserByName, toUserInfo } from './user-service.ts';
export { jobSchedulerPlugin } from './job-scheduler.ts';
