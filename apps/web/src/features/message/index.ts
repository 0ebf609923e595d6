export { NoticeBell, USER_ANNOUNCEMENT_PATH } from './components/notice-bell.tsx';
export { AnnouncementDetailModal, type NoticeDetail } from './components/announcement-detail-modal.tsx';
