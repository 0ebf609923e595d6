import { PeopleStatus, permissionCode } from '@isps/contract';
import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CrudExtensionProps, CrudRow } from '../../shared/crud/index.ts';
import { Authorized } from '../../shared/permission/index.ts';
import { useSetPeopleStatus } from './api/freeze-people.ts';

/** Freeze (after a confirmation) or thaw one person. */
export function PeopleFreezeAction({ entity, row, refresh }: CrudExtensionProps & { row: CrudRow }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const setStatus = useSetPeopleStatus();
  const frozen = Number(row.status) === PeopleStatus.frozen;
  const run = () =>
    setStatus.mutateAsync(
      { ids: [row.id], status: frozen ? PeopleStatus.normal : PeopleStatus.frozen },
      {
        onSuccess: (envelope) => {
          void message.success(envelope.message);
          refresh();
        },
        onError: (error) => void message.error(error.message),
      },
    );
  return (
    <Authorized code={permissionCode(entity, 'frozen')}>
      <Button
        type="link"
        size="small"
        danger={!frozen}
        loading={setStatus.isPending}
        onClick={() => {
          if (frozen) return void run().catch(() => undefined);
          modal.confirm({
            title: t('people.freezeConfirm', { name: String(row.name ?? '') }),
            content: t('people.freezeHint'),
            okText: t('people.freeze'),
            okButtonProps: { danger: true },
            cancelText: t('common.cancel'),
            onOk: () => run().catch(() => undefined),
          });
        }}
      >
        {frozen ? t('people.thaw') : t('people.freeze')}
      </Button>
    </Authorized>
  );
}
