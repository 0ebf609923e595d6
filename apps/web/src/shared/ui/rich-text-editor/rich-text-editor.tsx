import { Spin } from 'antd';
import { Suspense, lazy } from 'react';
import styles from './rich-text-editor.module.css';

export interface RichTextEditorProps {
  /** HTML; '' when empty */
  value?: string | null;
  onChange?: (html: string) => void;
  /** set by antd's Form.Item; lands on the editable area */
  id?: string;
  disabled?: boolean;
  /** the editable area's accessible name (a form label cannot point at a contenteditable) */
  'aria-label'?: string;
  /** stores an image and returns the address to show it at; without it there is no image button */
  uploadImage?: (file: File) => Promise<string>;
}

const TiptapEditor = lazy(() => import('./tiptap-editor.tsx'));

/** A rich-text form control (value/onChange with HTML) with a toolbar; the editor itself loads on first use. */
export function RichTextEditor(props: RichTextEditorProps) {
  return (
    <Suspense
      fallback={
        <div className={styles.fallback}>
          <Spin />
        </div>
      }
    >
      <TiptapEditor {...props} />
    </Suspense>
  );
}
