import { LANGUAGES, PeoplePath, entityLabel, peopleEntity, translate, type Language } from '@isps/contract';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../../shared/i18n/index.ts';
import { PeopleFreezeAction } from '../people-freeze-action.tsx';
import { readIn, renderInConsole, signInHolding } from '../../../test-providers.tsx';

const envelope = (result: unknown, success = true, message = '') => ({ success, message, code: success ? 200 : 500, result, timestamp: 1 });
let statusChanges: Array<{ body: Record<string, unknown>; lang: string | null }>;

beforeEach(() => {
  statusChanges = [];
  signInHolding(peopleEntity);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://console.test');
      if (url.pathname.endsWith(PeoplePath.frozenPeople)) {
        const body = JSON.parse(String(init?.body)) as { status: number };
        const lang = (new Headers(init?.headers).get('lang') ?? 'zh-CN') as Language;
        statusChanges.push({ body, lang });
        return Response.json(envelope({ count: 1 }, true, translate(lang, body.status === 2 ? 'people.frozenBatch' : 'people.thawedBatch', { count: 1 })));
      }
      return Response.json(envelope([]));
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());
afterAll(async () => {
  localStorage.clear();
  await i18n.changeLanguage('zh-CN');
});

describe.each(LANGUAGES)('freezing people in %s', (lang) => {
  const label = (key: string) => entityLabel(lang, key);

  it('freezes a person after asking by name, thaws without asking, and shows the server’s word for each', async () => {
    await readIn(lang);
    const refresh = vi.fn();
    const frozen = renderInConsole(<PeopleFreezeAction entity={peopleEntity} refresh={refresh} row={{ id: 'p1', name: 'Nova', status: 1 }} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: label('people.freeze') }));
    });
    const confirm = await screen.findByRole('dialog');
    expect(confirm.textContent).toContain(i18n.t('people.freezeConfirm', { name: 'Nova' }));
    expect(statusChanges).toEqual([]);
    await act(async () => {
      fireEvent.click(within(confirm).getByRole('button', { name: label('people.freeze') }));
    });
    expect(await screen.findByText(translate(lang, 'people.frozenBatch', { count: 1 }))).toBeTruthy();
    expect(statusChanges).toEqual([{ lang, body: { ids: 'p1', status: 2 } }]);
    expect(refresh).toHaveBeenCalled();

    // the list reloads with the person frozen
    frozen.unmount();
    renderInConsole(<PeopleFreezeAction entity={peopleEntity} refresh={refresh} row={{ id: 'p1', name: 'Nova', status: 2 }} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: label('people.thaw') }));
    });
    expect(await screen.findByText(translate(lang, 'people.thawedBatch', { count: 1 }))).toBeTruthy();
    expect(statusChanges[1]).toEqual({ lang, body: { ids: 'p1', status: 1 } });
  });
});
