import type { RollCallEntry } from '@isps/contract';
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../shared/time/index.ts';
import styles from './roll-call-sheet.module.css';

export interface SheetContent {
  title: string;
  /** lines under the title: what happened, when and by whom */
  lines: string[];
  entries: RollCallEntry[];
}

/**
 * The printed roll call: a plain black-on-white table, the only thing on the page when printing (the print
 * stylesheet hides the console, the alarm and any drawer). It is drawn for the print and taken away after it.
 */
function RollCallSheet({ content }: { content: SheetContent }) {
  const { t } = useTranslation();
  return createPortal(
    <div className={styles.sheet} data-testid="roll-call-sheet">
      <h1>{content.title}</h1>
      {content.lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
      <p>{t('emergency.report.printed', { time: formatTime(new Date().toISOString(), 'datetime') })}</p>
      <table>
        <thead>
          <tr>
            <th>{t('emergency.col.name')}</th>
            <th>{t('emergency.col.userNo')}</th>
            <th>{t('emergency.col.area')}</th>
            <th>{t('emergency.col.door')}</th>
            <th>{t('emergency.col.status')}</th>
          </tr>
        </thead>
        <tbody>
          {content.entries.map((entry) => (
            <tr key={entry.peopleId}>
              <td>{entry.name}</td>
              <td>{entry.userNo ?? ''}</td>
              <td>{entry.areaName ?? t('emergency.noArea')}</td>
              <td>{entry.doorName ?? ''}</td>
              <td>{entry.safeBy ? t('emergency.safeBy', { user: entry.safeBy, time: formatTime(entry.safeTime, 'datetime') }) : t('emergency.report.missing')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>,
    document.body,
  );
}

/** Prints a roll call: `print(content)` draws the sheet, opens the browser's print dialog, and removes it afterwards. */
export function useRollCallPrint() {
  const [content, setContent] = useState<SheetContent | null>(null);
  useEffect(() => {
    if (!content) return;
    const done = () => setContent(null);
    window.addEventListener('afterprint', done, { once: true });
    window.print();
    return () => window.removeEventListener('afterprint', done);
  }, [content]);
  return { print: setContent, sheet: content ? <RollCallSheet content={content} /> : null };
}
