import { TENANT_DICT } from '@isps/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { SelectProps } from 'antd';
import { useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { chosenTenant } from '../../shared/api/client.ts';
import { dictItemsQuery } from '../../shared/api/get-dict-items.ts';
import { useTenantChooser } from '../../shared/permission/index.ts';
import { StorageKey, setStored } from '../../shared/storage/index.ts';
import { lazyPart } from '../../shared/ui/lazy-dialog.tsx';

// antd's select loads only where there are tenants to choose (the menu search's stand-in keeps it from the frame too)
const Select = lazyPart(() => import('antd/es/select').then((m) => m.default as ComponentType<SelectProps<string>>));

/** The header's tenant selector: every call carries the choice (`tenant-id`), kept across reloads. */
export function TenantSelect() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const chooser = useTenantChooser();
  const tenants = useQuery({ ...dictItemsQuery(TENANT_DICT), enabled: chooser });
  const [value, setValue] = useState(chosenTenant);
  // with a single tenant there is nothing to choose: the header stays as it was
  if (!chooser || (tenants.data?.length ?? 0) < 2) return null;
  const options = [{ value: '0', label: t('header.tenantOwn') }, ...(tenants.data ?? []).map((o) => ({ value: o.value, label: o.text }))];
  // a tenant deleted since it was chosen shows as the own one, as the server then treats it
  const shown = options.some((o) => o.value === value) ? value : '0';
  const choose = (next: string) => {
    setStored(StorageKey.tenant, next, null);
    setValue(next);
    // every list and figure on screen belongs to the tenant worked in
    void queryClient.invalidateQueries();
  };
  return (
    <Select
      size="small"
      value={shown}
      options={options}
      onChange={choose}
      aria-label={t('header.tenant')}
      title={t('header.tenant')}
      popupMatchSelectWidth={false}
      style={{ minWidth: 120, maxWidth: 200 }}
    />
  );
}
