import { permissionCode, tenantEntity } from '@isps/contract';
import { describe, expect, it } from 'vitest';
import { TENANT_CHOOSER } from './tenant-chooser.ts';

describe('the tenant chooser', () => {
  it('is granted by the tenant screen list permission', () => {
    expect(TENANT_CHOOSER).toBe(permissionCode(tenantEntity, 'list'));
  });
});
