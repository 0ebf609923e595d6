import { describe, expect, it } from 'vitest';
import { isVisitorPath } from './visitor-routes.tsx';

describe('visitor area paths', () => {
  it('are the visitor pages only; the staff screens of the visitor menu stay in the console', () => {
    for (const path of ['/vistor', '/vistor/', '/vistor/login', '/vistor/reg', '/vistor/panel', '/vistor/user/main', '/vistor/user']) expect(isVisitorPath(path), path).toBe(true);
    for (const path of ['/vistor/list', '/vistor/apiLogin', '/vistorx', '/system/user', '/vistor/loginx']) expect(isVisitorPath(path), path).toBe(false);
  });
});
