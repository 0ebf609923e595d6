import {
  AlignCenterOutlined,
  AlignLeftOutlined,
  AlignRightOutlined,
  BoldOutlined,
  ClearOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import Image from '@tiptap/extension-image';
import TextAlign from '@tiptap/extension-text-align';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Select, Tooltip, theme } from 'antd';
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LinkPrompt } from './link-prompt.tsx';
import type { RichTextEditorProps } from './rich-text-editor.tsx';
import styles from './rich-text-editor.module.css';
import { isSafeLinkUrl } from './safe-link.ts';

type Level = 1 | 2 | 3;
const HEADING_LEVELS: Level[] = [1, 2, 3];
const IMAGE_ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';

/** An empty editor holds `<p></p>`; the form sees '' so "no content" stays recognisable. */
function htmlOf(editor: Editor): string {
  return editor.isEmpty ? '' : editor.getHTML();
}

function ToolButton({ label, keys, icon, active, disabled, onClick }: { label: string; keys?: string; icon: ReactNode; active?: boolean; disabled?: boolean; onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Tooltip title={keys ? t('richText.withShortcut', { label, keys }) : label} mouseEnterDelay={0.4}>
      <Button
        type="text"
        size="small"
        icon={icon}
        aria-label={label}
        aria-pressed={active === undefined ? undefined : active}
        className={active ? styles.active : undefined}
        disabled={disabled}
        // keep the editor's selection: a click on the toolbar must not move focus away first
        onMouseDown={(event) => event.preventDefault()}
        onClick={onClick}
      />
    </Tooltip>
  );
}

/** The Tiptap editor behind RichTextEditor (loaded on demand, so it stays out of the main bundle). */
export default function TiptapEditor({ value, onChange, id, disabled, uploadImage, 'aria-label': ariaLabel }: RichTextEditorProps) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [linkOpen, setLinkOpen] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  // the editor is created once; its update handler calls the newest onChange through this
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: HEADING_LEVELS },
        code: false,
        codeBlock: false,
        link: { openOnClick: false, autolink: true, defaultProtocol: 'https', isAllowedUri: (url) => isSafeLinkUrl(url) },
      }),
      Image.configure({ allowBase64: false }),
      TextAlign.configure({ types: ['heading', 'paragraph'] }),
    ],
    content: value ?? '',
    editable: !disabled,
    editorProps: {
      attributes: {
        ...(id ? { id } : {}),
        role: 'textbox',
        'aria-multiline': 'true',
        ...(ariaLabel ? { 'aria-label': ariaLabel } : {}),
      },
    },
    onUpdate: ({ editor: changed }) => onChangeRef.current?.(htmlOf(changed)),
  });

  // a value set from outside (the form opening a record, a reset) replaces the content without echoing back
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    if ((value ?? '') !== htmlOf(editor)) editor.commands.setContent(value ?? '', { emitUpdate: false });
  }, [editor, value]);

  useEffect(() => {
    editor?.setEditable(!disabled);
  }, [editor, disabled]);

  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      bulletList: e.isActive('bulletList'),
      orderedList: e.isActive('orderedList'),
      blockquote: e.isActive('blockquote'),
      link: e.isActive('link'),
      linkHref: (e.getAttributes('link').href as string | undefined) ?? '',
      heading: HEADING_LEVELS.find((level) => e.isActive('heading', { level })) ?? 0,
      align: (['center', 'right'] as const).find((a) => e.isActive({ textAlign: a })) ?? 'left',
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });

  const chain = () => editor.chain().focus();

  const insertImage = async (file: File) => {
    if (!uploadImage) return;
    setProblem(null);
    setUploading(true);
    try {
      const src = await uploadImage(file);
      chain().setImage({ src, alt: file.name.replace(/\.[^.]+$/, '') }).run();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : t('request.failed'));
    } finally {
      setUploading(false);
    }
  };

  const frameStyle = {
    '--rte-border': token.colorBorder,
    '--rte-hover': token.colorPrimaryHover,
    '--rte-primary': token.colorPrimary,
    '--rte-outline': token.controlOutline,
    '--rte-radius': `${token.borderRadius}px`,
    '--rte-bg': disabled ? token.colorBgContainerDisabled : token.colorBgContainer,
    '--rte-text': token.colorText,
    '--rte-secondary': token.colorTextSecondary,
    '--rte-split': token.colorSplit,
    '--rte-toolbar-bg': token.colorFillQuaternary,
    '--rte-active-bg': token.controlItemBgActive,
    '--rte-error': token.colorError,
  } as CSSProperties;

  const off = disabled || !editor;
  return (
    <div className={styles.frame} style={frameStyle}>
      <div role="toolbar" aria-label={t('richText.toolbar')} className={styles.toolbar}>
        <span className={styles.group}>
          <ToolButton label={t('richText.bold')} keys="Ctrl+B" icon={<BoldOutlined />} active={state.bold} disabled={off} onClick={() => chain().toggleBold().run()} />
          <ToolButton label={t('richText.italic')} keys="Ctrl+I" icon={<ItalicOutlined />} active={state.italic} disabled={off} onClick={() => chain().toggleItalic().run()} />
          <ToolButton label={t('richText.underline')} keys="Ctrl+U" icon={<UnderlineOutlined />} active={state.underline} disabled={off} onClick={() => chain().toggleUnderline().run()} />
          <ToolButton label={t('richText.strike')} keys="Ctrl+Shift+S" icon={<StrikethroughOutlined />} active={state.strike} disabled={off} onClick={() => chain().toggleStrike().run()} />
        </span>
        <span className={styles.separator} aria-hidden />
        <Tooltip title={t('richText.blockStyle')} mouseEnterDelay={0.4}>
          <Select
            size="small"
            variant="borderless"
            style={{ width: 124 }}
            aria-label={t('richText.blockStyle')}
            disabled={off}
            value={state.heading}
            popupMatchSelectWidth={false}
            onChange={(level: number) => (level ? chain().setHeading({ level: level as Level }).run() : chain().setParagraph().run())}
            options={[
              { value: 0, label: t('richText.paragraph') },
              ...HEADING_LEVELS.map((level) => ({ value: level, label: t('richText.heading', { level }) })),
            ]}
          />
        </Tooltip>
        <span className={styles.separator} aria-hidden />
        <span className={styles.group}>
          <ToolButton label={t('richText.bulletList')} keys="Ctrl+Shift+8" icon={<UnorderedListOutlined />} active={state.bulletList} disabled={off} onClick={() => chain().toggleBulletList().run()} />
          <ToolButton label={t('richText.orderedList')} keys="Ctrl+Shift+7" icon={<OrderedListOutlined />} active={state.orderedList} disabled={off} onClick={() => chain().toggleOrderedList().run()} />
          <ToolButton
            label={t('richText.blockquote')}
            keys="Ctrl+Shift+B"
            icon={<span className={styles.quoteMark} aria-hidden>“</span>}
            active={state.blockquote}
            disabled={off}
            onClick={() => chain().toggleBlockquote().run()}
          />
        </span>
        <span className={styles.separator} aria-hidden />
        <span className={styles.group}>
          <ToolButton label={t('richText.alignLeft')} keys="Ctrl+Shift+L" icon={<AlignLeftOutlined />} active={state.align === 'left'} disabled={off} onClick={() => chain().setTextAlign('left').run()} />
          <ToolButton label={t('richText.alignCenter')} keys="Ctrl+Shift+E" icon={<AlignCenterOutlined />} active={state.align === 'center'} disabled={off} onClick={() => chain().setTextAlign('center').run()} />
          <ToolButton label={t('richText.alignRight')} keys="Ctrl+Shift+R" icon={<AlignRightOutlined />} active={state.align === 'right'} disabled={off} onClick={() => chain().setTextAlign('right').run()} />
        </span>
        <span className={styles.separator} aria-hidden />
        <span className={styles.group}>
          <ToolButton label={t('richText.link')} icon={<LinkOutlined />} active={state.link} disabled={off} onClick={() => setLinkOpen(true)} />
          {uploadImage && (
            <ToolButton
              label={t('richText.image')}
              icon={<PictureOutlined />}
              disabled={off || uploading}
              onClick={() => fileInput.current?.click()}
            />
          )}
          <ToolButton label={t('richText.clearFormat')} icon={<ClearOutlined />} disabled={off} onClick={() => chain().unsetAllMarks().clearNodes().run()} />
        </span>
        <span className={styles.separator} aria-hidden />
        <span className={styles.group}>
          <ToolButton label={t('richText.undo')} keys="Ctrl+Z" icon={<UndoOutlined />} disabled={off || !state.canUndo} onClick={() => chain().undo().run()} />
          <ToolButton label={t('richText.redo')} keys="Ctrl+Shift+Z" icon={<RedoOutlined />} disabled={off || !state.canRedo} onClick={() => chain().redo().run()} />
        </span>
      </div>
      {uploadImage && (
        <input
          ref={fileInput}
          type="file"
          accept={IMAGE_ACCEPT}
          style={{ display: 'none' }}
          data-testid="rich-text-image-input"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (file) void insertImage(file);
          }}
        />
      )}
      {uploading && (
        <div className={styles.error} role="status" style={{ color: token.colorTextSecondary }}>
          {t('richText.uploading')}
        </div>
      )}
      {problem && (
        <div className={styles.error} role="alert">
          {problem}
        </div>
      )}
      <EditorContent editor={editor} className={styles.content} />
      <LinkPrompt
        open={linkOpen}
        initial={state.linkHref}
        onCancel={() => setLinkOpen(false)}
        onRemove={() => {
          setLinkOpen(false);
          chain().extendMarkRange('link').unsetLink().run();
        }}
        onSubmit={(href) => {
          setLinkOpen(false);
          if (editor.state.selection.empty && !state.link) {
            chain().insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] }).run();
          } else {
            chain().extendMarkRange('link').setLink({ href }).run();
          }
        }}
      />
    </div>
  );
}
