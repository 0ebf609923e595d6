export { systemRoutes } from './routes.ts';
export { createUser, deleteUser, setUserStatus, UserStatus } from './user-service.ts';
export { checkCaptcha, startSession } from './login-service.ts';
export { findActiveUserById, findActiveUserByName, toUserInfo } from './user-service.ts';
export { jobSchedulerPlugin } from './job-scheduler.ts';
