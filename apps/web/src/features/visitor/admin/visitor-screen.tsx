import { VisitorStatus, permissionCode, type EntityDeclaration } from '@isps/contract';
import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { CrudScreen, type CrudExtension, type CrudExtensionProps, type CrudRow } from '../../../shared/crud/index.ts';
import { Authorized } from '../../../shared/permission/index.ts';
import { useSetVisitorStatus } from '../api/freeze-visitors.ts';

/** Freeze (after a confirmation: the visitor is signed out at once) or thaw one visitor. */
function FreezeAction({ entity, row, refresh }: CrudExtensionProps & { row: CrudRow }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const setStatus = useSetVisitorStatus();
  const frozen = Number(row.status) === VisitorStatus.frozen;
  const run = () =>
    setStatus.mutateAsync(
      { ids: [row.id], status: frozen ? VisitorStatus.normal : VisitorStatus.frozen },
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
            title: t('visitorAdmin.freezeConfirm', { name: String(row.name ?? '') }),
            content: t('visitorAdmin.freezeHint'),
            okText: t('visitorAdmin.freeze'),
            okButtonProps: { danger: true },
            cancelText: t('common.cancel'),
            onOk: () => run().catch(() => undefined),
          });
        }}
      >
        {frozen ? t('visitorAdmin.thaw') : t('visitorAdmin.freeze')}
      </Button>
    </Authorized>
  );
}

const extension: CrudExtension = { RowActions: FreezeAction };

/** The staff's visitor list: the generic screen of the declaration plus freezing. */
export function VisitorEntityScreen({ entity }: { entity: EntityDeclaration }) {
  return <CrudScreen key={entity.name} entity={entity} extension={extension} />;
}
