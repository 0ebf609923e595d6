import { Select, Space } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { IconByName, outlinedIconNames } from './icon-by-name.tsx';

interface IconPickerProps {
  id?: string;
  value?: string;
  onChange?: (value: string | undefined) => void;
  disabled?: boolean;
}

/** Picks an outlined antd icon by name, searchable, each shown beside its name (menu icons). */
export function IconPicker({ id, value, onChange, disabled }: IconPickerProps) {
  const { t } = useTranslation();
  const options = useMemo(
    () =>
      outlinedIconNames().map((name) => ({
        value: name,
        label: (
          <Space size={8}>
            <IconByName name={name} />
            <span>{name}</span>
          </Space>
        ),
        search: name,
      })),
    [],
  );
  return (
    <Select
      id={id}
      value={value || undefined}
      onChange={onChange}
      disabled={disabled}
      allowClear
      showSearch={{ optionFilterProp: 'search' }}
      placeholder={t('crud.iconPlaceholder')}
      options={options}
      virtual
      listHeight={320}
    />
  );
}
