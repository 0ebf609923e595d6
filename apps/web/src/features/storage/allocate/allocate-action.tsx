import { permissionCode } from '@isps/contract';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRowState, type CrudExtension, type CrudExtensionProps, type CrudRow } from '../../../shared/crud/index.ts';
import { Authorized } from '../../../shared/permission/index.ts';
import { AllocateCabinetDialog, holderIdsOf } from './allocate-dialog.tsx';

/** A locker row's "Allocate" (storage:cabinet:allocate): the dialog starts from the row's holders and expiry. */
function AllocateRowAction({ entity, row, refresh }: CrudExtensionProps & { row: CrudRow }) {
  const { t } = useTranslation();
  // kept by the screen: the dialog stays open when the list turns from table to cards
  const [open, setOpen] = useRowState(row.id, 'allocate', false);
  return (
    <Authorized code={permissionCode(entity, 'allocate')}>
      <Button type="link" size="small" data-command="allocate" onClick={() => setOpen(true)}>
        {t('cabinet.allocate')}
      </Button>
      {open ? (
        <AllocateCabinetDialog
          cabinet={{
            id: row.id,
            cabinetNo: String(row.cabinetNo ?? ''),
            attribute: Number(row.attribute),
            peopleIds: holderIdsOf(row.peopleIds),
            expireTime: typeof row.expireTime === 'string' ? row.expireTime : null,
          }}
          onClose={() => setOpen(false)}
          onAllocated={refresh}
        />
      ) : null}
    </Authorized>
  );
}

/** The locker list beside the generic screen: "Allocate" on each row (open and release are declared row commands). */
export const cabinetExtension: CrudExtension = { RowActions: AllocateRowAction };
