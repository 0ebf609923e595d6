import { LogType, logEntity } from '@isps/contract';
import { Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudScreen } from '../../../shared/crud/index.ts';

const tabs = [
  { key: String(LogType.login), label: 'log.type.login' },
  { key: String(LogType.operation), label: 'log.type.operation' },
] as const;

/** The login log and the operation log: one declaration, one tab per log type (search, sort, page, export). */
export default function LogPage() {
  const { t } = useTranslation();
  const [active, setActive] = useState<string>(String(LogType.login));
  return (
    <Tabs
      activeKey={active}
      onChange={setActive}
      destroyOnHidden
      items={tabs.map((tab) => ({
        key: tab.key,
        label: t(tab.label),
        children: <CrudScreen key={tab.key} entity={logEntity} fixed={{ logType: tab.key }} />,
      }))}
    />
  );
}
