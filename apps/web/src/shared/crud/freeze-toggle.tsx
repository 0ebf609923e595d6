import { permissionCode, type Envelope } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { Authorized } from '../permission/index.ts';
import type { CrudExtensionProps } from './crud-screen.tsx';
import type { CrudRow } from './entity-fields.ts';

/** Status 1 normal, 2 frozen (users, visitors, people). */
const NORMAL = 1;
const FROZEN = 2;

export interface FreezeToggleProps extends CrudExtensionProps {
  row: CrudRow;
  /** sends the new status of the rows (PUT …/frozen…) */
  setStatus: (change: { ids: string[]; status: 1 | 2 }) => Promise<Envelope<unknown>>;
  /** i18n keys: the button texts, and the confirmation's title (with `{{name}}`) and hint */
  texts: { freeze: string; thaw: string; confirm: string; hint: string };
}

/** A row's freeze (after a confirmation) or thaw button, shown to holders of the screen's `frozen` permission. */
export function FreezeToggle({ entity, row, refresh, setStatus, texts }: FreezeToggleProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const mutation = useMutation({ mutationFn: setStatus });
  const frozen = Number(row.status) === FROZEN;
  const run = () =>
    mutation.mutateAsync(
      { ids: [row.id], status: frozen ? NORMAL : FROZEN },
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
        loading={mutation.isPending}
        onClick={() => {
          if (frozen) return void run().catch(() => undefined);
          modal.confirm({
            title: t(texts.confirm, { name: String(row.name ?? '') }),
            content: t(texts.hint),
            okText: t(texts.freeze),
            okButtonProps: { danger: true },
            cancelText: t('common.cancel'),
            onOk: () => run().catch(() => undefined),
          });
        }}
      >
        {frozen ? t(texts.thaw) : t(texts.freeze)}
      </Button>
    </Authorized>
  );
}
