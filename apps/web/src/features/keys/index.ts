// the key screens load with their page (app/page-registry.tsx imports key-screen.tsx lazily); the frame holds the notices
export { KeyOverdueNotices } from './overdue-notices.tsx';
