import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/index.ts';
import { renderInConsole } from '../../test-providers.tsx';
import { FileUpload, storedFileName } from './file-upload.tsx';

beforeAll(async () => {
  await i18n.changeLanguage('en-US');
});

describe('file widget', () => {
  it('names a stored file by the name it was uploaded with and links to its download', () => {
    const path = `device/20260101/${'a'.repeat(32)}_reader-plugin.zip`;
    expect(storedFileName(path)).toBe('reader-plugin.zip');
    renderInConsole(<FileUpload value={path} onChange={() => undefined} maxBytes={1024} />);
    const link = screen.getByRole('link', { name: /reader-plugin\.zip/ });
    expect(link.getAttribute('href')).toContain(`/sys/common/static/device/20260101/${'a'.repeat(32)}_reader-plugin.zip`);
    expect(screen.getByRole('button', { name: 'Remove file' })).toBeTruthy();
  });

  it('refuses a file over the limit before sending it', async () => {
    const onChange = vi.fn();
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { container } = renderInConsole(<FileUpload id="pf" onChange={onChange} maxBytes={1024 * 1024} />);
    const input = container.querySelector<HTMLInputElement>('input[type=file]')!;
    fireEvent.change(input, { target: { files: [new File([new Uint8Array(1024 * 1024 + 1)], 'big.zip')] } });
    await waitFor(() => expect(document.body.textContent).toContain('The file must be smaller than 1 MB'));
    expect(onChange).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });
});
