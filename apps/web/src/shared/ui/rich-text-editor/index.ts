export { RichTextEditor, type RichTextEditorProps } from './rich-text-editor.tsx';
export { isSafeLinkUrl } from './safe-link.ts';
