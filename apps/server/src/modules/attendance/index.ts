export { attendancePlugin, type AttendanceOptions } from './plugin.ts';
export { attendanceRoutes } from './routes.ts';
