import { CompressOutlined, ExpandOutlined, PaperClipOutlined } from '@ant-design/icons';
import { displayFileName } from '@isps/contract';
import { Button, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatTime } from './format-time.ts';
import styles from './notices.module.css';

/** What the dialog shows: a bell entry, a row of the user's list or an announcement itself. */
export interface NoticeDetail {
  id: string;
  titile: string;
  sender: string | null;
  sendTime: string | null;
  /** sanitised by the server before it is stored and again before it is sent */
  msgContent: string | null;
  openType: string | null;
  openPage: string | null;
  readFlag?: 0 | 1;
  /** addresses of uploaded files (attachments comma-separated) */
  backgroundImage?: string | null;
  attachments?: string | null;
  video?: string | null;
}

// the server accepts only these on input; anything older or stranger is not turned into a link
const SHOWN_ADDRESS = /^(\/(?!\/)|https?:\/\/)/i;

function addresses(value: string | null | undefined): string[] {
  return (value ?? '').split(',').map((s) => s.trim()).filter((s) => SHOWN_ADDRESS.test(s));
}

/** SPEC section 2 announcement detail: 60% wide, full-screen toggle, Close, a handle button for url notices and the page of a component notice. */
export function AnnouncementDetailModal({ notice, onClose }: { notice: NoticeDetail | null; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [fullScreen, setFullScreen] = useState(false);
  const canHandle = !!notice && notice.openType === 'url' && notice.readFlag !== 1 && !!notice.openPage;
  // 'component': the notice is about a console page, which it opens (the origin opens the component openPage names)
  const opensPage = !!notice && notice.openType === 'component' && !!notice.openPage?.startsWith('/');

  const handle = () => {
    if (!notice?.openPage) return;
    onClose();
    if (notice.openPage.startsWith('/')) navigate(notice.openPage);
    else window.open(notice.openPage, '_blank', 'noopener');
  };

  return (
    <Modal
      open={!!notice}
      onCancel={onClose}
      // 60% of a desktop window; a phone (below 768 px) gets the window's width less antd's margins
      width={fullScreen ? '100%' : { xs: '100%', md: '60%' }}
      className={fullScreen ? styles.fullScreen : undefined}
      style={fullScreen ? { top: 0, paddingBottom: 0, maxWidth: '100vw' } : undefined}
      destroyOnHidden
      rootClassName="announcement-detail-modal"
      title={
        <div className={styles.detailTitle}>
          <span>{t('notices.detailTitle')}</span>
          <Button
            type="text"
            size="small"
            aria-label={t(fullScreen ? 'notices.exitFullScreen' : 'notices.fullScreen')}
            icon={fullScreen ? <CompressOutlined /> : <ExpandOutlined />}
            onClick={() => setFullScreen((v) => !v)}
          />
        </div>
      }
      footer={
        <Space>
          {canHandle && (
            <Button type="primary" onClick={handle}>
              {t('notices.handle')}
            </Button>
          )}
          {opensPage && (
            <Button type="primary" onClick={handle}>
              {t('notices.openPage')}
            </Button>
          )}
          <Button onClick={onClose}>{t('notices.close')}</Button>
        </Space>
      }
    >
      {notice && (
        <article className={styles.detail}>
          <Typography.Title level={4} className={styles.detailHeading}>
            {notice.titile}
          </Typography.Title>
          <Typography.Text type="secondary" className={styles.detailMeta}>
            {t('notices.sender')}: {notice.sender ?? '-'} · {t('notices.sendTime')}: {formatTime(notice.sendTime) || '-'}
          </Typography.Text>
          {addresses(notice.backgroundImage).map((src) => (
            <img key={src} src={src} alt="" className={styles.detailBackground} data-testid="announcement-background" />
          ))}
          {/* The server sanitises announcement HTML (no scripts, handlers or javascript: URLs) before storing it. */}
          <div className={styles.detailContent} data-testid="announcement-content" dangerouslySetInnerHTML={{ __html: notice.msgContent ?? '' }} />
          {addresses(notice.video).map((src) => (
            <video key={src} src={src} controls preload="metadata" className={styles.detailVideo} aria-label={t('notices.video')} />
          ))}
          {addresses(notice.attachments).length > 0 && (
            <section className={styles.detailAttachments} aria-label={t('notices.attachments')}>
              <Typography.Text strong>{t('notices.attachments')}</Typography.Text>
              <ul>
                {addresses(notice.attachments).map((href) => (
                  <li key={href}>
                    <PaperClipOutlined aria-hidden />{' '}
                    <a href={href} download={displayFileName(href)} target="_blank" rel="noopener noreferrer">
                      {displayFileName(href)}
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </article>
      )}
    </Modal>
  );
}
