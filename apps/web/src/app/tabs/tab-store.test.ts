import { beforeEach, describe, expect, it } from 'vitest';
import { useTabs, type PageTab } from './tab-store.ts';

const tab = (pathname: string): PageTab => ({ key: pathname, pathname, titleKey: `menu${pathname.replace(/\//g, '.')}` });
const keys = () => useTabs.getState().tabs.map((t) => t.key);
const home = '/dashboard/analysis';

describe('multi-page tabs', () => {
  beforeEach(() => {
    useTabs.getState().reset();
    for (const path of [home, '/a', '/b', '/c', '/d']) useTabs.getState().open(tab(path));
  });

  it('opens each page once, in visiting order', () => {
    useTabs.getState().open(tab('/b'));
    expect(keys()).toEqual([home, '/a', '/b', '/c', '/d']);
  });

  it('puts home first when it is opened after other pages', () => {
    useTabs.getState().reset();
    for (const path of ['/a', '/b', home, '/c']) useTabs.getState().open(tab(path));
    expect(keys()).toEqual([home, '/a', '/b', '/c']);
  });

  it('refuses to close the home page and the last page', () => {
    expect(useTabs.getState().close(home, home)).toEqual({ closed: false, reason: 'home' });
    useTabs.getState().reset();
    useTabs.getState().open(tab('/a'));
    expect(useTabs.getState().close('/a', '/a')).toEqual({ closed: false, reason: 'last' });
    expect(keys()).toEqual(['/a']);
  });

  it('closing the page on screen goes to its right neighbour, or the left one at the end', () => {
    expect(useTabs.getState().close('/b', '/b')).toEqual({ closed: true, next: '/c' });
    expect(useTabs.getState().close('/d', '/d')).toEqual({ closed: true, next: '/c' });
    expect(useTabs.getState().close('/a', '/c')).toEqual({ closed: true, next: null });
    expect(keys()).toEqual([home, '/c']);
  });

  it('closes the left, the right and the other tabs but always keeps home', () => {
    useTabs.getState().closeLeft('/c');
    expect(keys()).toEqual([home, '/c', '/d']);
    useTabs.getState().open(tab('/e'));
    useTabs.getState().closeRight('/c');
    expect(keys()).toEqual([home, '/c']);
    useTabs.getState().open(tab('/f'));
    useTabs.getState().open(tab('/g'));
    useTabs.getState().closeOthers('/f');
    expect(keys()).toEqual([home, '/f']);
    useTabs.getState().closeOthers(home);
    expect(keys()).toEqual([home]);
  });

  it('counts refreshes per page so that page alone mounts again', () => {
    useTabs.getState().refresh('/a');
    useTabs.getState().refresh('/a');
    expect(useTabs.getState().refreshes).toEqual({ '/a': 2 });
  });
});
