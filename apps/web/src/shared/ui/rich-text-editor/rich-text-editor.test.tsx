import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n } from '../../i18n/index.ts';
import { RichTextEditor } from './rich-text-editor.tsx';
import { isSafeLinkUrl } from './safe-link.ts';

// jsdom lays nothing out; ProseMirror only asks where the caret is to scroll it into view
beforeAll(async () => {
  Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = () => new DOMRect();
  Element.prototype.scrollIntoView = () => undefined;
  await i18n.changeLanguage('en-US');
});

function Harness({ initial = '', onValue }: { initial?: string; onValue: (html: string) => void }) {
  const [value, setValue] = useState(initial);
  return (
    <RichTextEditor
      aria-label="Content"
      value={value}
      onChange={(html) => {
        setValue(html);
        onValue(html);
      }}
    />
  );
}

/** What a browser does when a key is typed into a contenteditable: text appears at the caret, then an input event. */
async function typeText(box: HTMLElement, text: string) {
  await act(async () => {
    const selection = window.getSelection()!;
    let node = selection.focusNode!;
    let offset = selection.focusOffset;
    // a caret on the editable itself (jsdom places it there on focus) goes into the first paragraph, as a click does
    if (node === box) {
      node = box.querySelector('p')!;
      offset = 0;
    }
    if (node.nodeType === Node.TEXT_NODE) {
      (node as Text).insertData(offset, text);
      selection.collapse(node, offset + text.length);
    } else {
      // an empty block holds a placeholder <br>, which the typed text replaces
      const typed = document.createTextNode(text);
      const next = node.childNodes[offset] ?? null;
      if (next?.nodeName === 'BR') node.replaceChild(typed, next);
      else node.insertBefore(typed, next);
      selection.collapse(typed, text.length);
    }
    fireEvent.input(box);
    // ProseMirror reads the change from its mutation observer
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
}

async function openEditor(initial?: string) {
  const values: string[] = [];
  render(<Harness initial={initial} onValue={(html) => values.push(html)} />);
  const box = await screen.findByRole('textbox', { name: 'Content' });
  act(() => box.focus());
  return { box, values, last: () => values.at(-1) ?? '' };
}

describe('RichTextEditor', () => {
  it('types bold text after the toolbar Bold button, and the value holds <strong>', async () => {
    const { box, last } = await openEditor();
    await typeText(box, 'Gate ');
    const bold = screen.getByRole('button', { name: 'Bold' });
    expect(bold.getAttribute('aria-pressed')).toBe('false');
    fireEvent.mouseDown(bold);
    fireEvent.click(bold);
    await typeText(box, 'closed');
    await waitFor(() => expect(last()).toBe('<p>Gate <strong>closed</strong></p>'));
    expect(screen.getByRole('button', { name: 'Bold' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('takes the Ctrl+B shortcut', async () => {
    const { box, last } = await openEditor();
    fireEvent.keyDown(box, { key: 'b', ctrlKey: true });
    await typeText(box, 'Urgent');
    await waitFor(() => expect(last()).toBe('<p><strong>Urgent</strong></p>'));
  });

  it('refuses a javascript: link with a message and applies an https one', async () => {
    const { box, last } = await openEditor('<p>Read the rules</p>');
    fireEvent.keyDown(box, { key: 'a', ctrlKey: true });
    fireEvent.click(screen.getByRole('button', { name: 'Link' }));
    const prompt = await screen.findByRole('dialog');
    const address = within(prompt).getByLabelText('Address');
    fireEvent.change(address, { target: { value: 'javascript:alert(document.cookie)' } });
    fireEvent.click(within(prompt).getByRole('button', { name: 'OK' }));
    await within(prompt).findByText('Only http(s), mailto: and tel: addresses or paths starting with / can be linked');
    expect(last()).not.toContain('<a');

    fireEvent.change(address, { target: { value: 'https://example.com/rules' } });
    fireEvent.click(within(prompt).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(last()).toContain('href="https://example.com/rules"'));
    expect(last()).toContain('>Read the rules</a>');
  });

  it('shows a value set from outside and reports an emptied editor as empty', async () => {
    const { box, last } = await openEditor('<p><em>Hi</em></p>');
    expect(box.innerHTML).toContain('<em>Hi</em>');
    fireEvent.keyDown(box, { key: 'a', ctrlKey: true });
    fireEvent.keyDown(box, { key: 'Backspace' });
    await waitFor(() => expect(last()).toBe(''));
  });

  it('labels every toolbar button', async () => {
    await openEditor();
    const toolbar = screen.getByRole('toolbar', { name: 'Text formatting' });
    for (const button of within(toolbar).getAllByRole('button')) expect(button.getAttribute('aria-label')).toBeTruthy();
  });
});

describe('isSafeLinkUrl', () => {
  it.each(['https://example.com', 'http://a.b/c', 'mailto:a@b.c', 'tel:+123', '/system/announcement'])('takes %s', (url) => {
    expect(isSafeLinkUrl(url)).toBe(true);
  });
  it.each(['javascript:alert(1)', ' JavaScript:alert(1)', 'java\tscript:alert(1)', 'data:text/html,x', 'vbscript:x', '//evil.example', ''])('refuses %j', (url) => {
    expect(isSafeLinkUrl(url)).toBe(false);
  });
});
