import { IdcardOutlined } from '@ant-design/icons';
import { permissionCode } from '@isps/contract';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CrudExtensionProps, CrudRow } from '../../../shared/crud/index.ts';
import { Authorized } from '../../../shared/permission/index.ts';
import { DeskDialog } from './desk-dialog.tsx';

/** A visit row's "Arrival" button: the desk, opened for that visit (permission `vistor:visit:desk`). */
export function ArrivalAction({ entity, row, refresh }: CrudExtensionProps & { row: CrudRow }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const close = () => {
    setOpen(false);
    refresh();
  };
  return (
    <Authorized code={permissionCode(entity, 'desk')}>
      <Button type="link" size="small" onClick={() => setOpen(true)}>
        {t('visitorDesk.arrival')}
      </Button>
      {open ? <DeskDialog visitId={row.id} onClose={close} /> : null}
    </Authorized>
  );
}

/** The visit list's "Arrivals desk" toolbar button: the desk for whoever arrives. */
export function DeskToolbarButton({ entity, refresh }: CrudExtensionProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const close = () => {
    setOpen(false);
    refresh();
  };
  return (
    <Authorized code={permissionCode(entity, 'desk')}>
      <Button icon={<IdcardOutlined />} onClick={() => setOpen(true)}>
        {t('visitorDesk.open')}
      </Button>
      {open ? <DeskDialog onClose={close} /> : null}
    </Authorized>
  );
}
