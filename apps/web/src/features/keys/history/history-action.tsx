import { permissionCode } from '@isps/contract';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRowState, type CrudExtension, type CrudExtensionProps, type CrudRow } from '../../../shared/crud/index.ts';
import { Authorized } from '../../../shared/permission/index.ts';
import { KeyHistoryDialog } from './key-history-dialog.tsx';

/** A key row's "History" (ks:key:list): its takes and returns in a dialog. */
function HistoryRowAction({ entity, row }: CrudExtensionProps & { row: CrudRow }) {
  const { t } = useTranslation();
  const [open, setOpen] = useRowState(row.id, 'history', false);
  return (
    <Authorized code={permissionCode(entity, 'list')}>
      <Button type="link" size="small" data-command="history" onClick={() => setOpen(true)}>
        {t('key.history')}
      </Button>
      {open ? <KeyHistoryDialog keyId={row.id} keyName={String(row.keyName ?? '')} onClose={() => setOpen(false)} /> : null}
    </Authorized>
  );
}

/** The key list beside the generic screen: "History" on each row. */
export const keyExtension: CrudExtension = { RowActions: HistoryRowAction };
