// the patrol screens load with their page (app/page-registry.tsx imports patrol-screen.tsx lazily); the frame holds the notices
export { PatrolMissedNotices } from './missed-notices.tsx';
