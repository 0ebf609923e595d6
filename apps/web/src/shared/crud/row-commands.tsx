import { permissionCode, type EntityDeclaration, type Envelope, type RowCommandDeclaration } from '@isps/contract';
import { App, Button, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../api/index.ts';
import { Authorized } from '../permission/index.ts';
import type { CrudRow } from './entity-fields.ts';

/** Calls a row command: `id` plus its params, in the query (GET, DELETE) or the body (POST, PUT). */
export function runRowCommand(command: RowCommandDeclaration, id: string): Promise<Envelope<unknown>> {
  const params = { ...command.params, id };
  switch (command.method) {
    case 'GET':
      return http.get(command.path, params);
    case 'DELETE':
      return http.delete(command.path, params);
    case 'POST':
      return http.post(command.path, params);
    default:
      return http.put(command.path, params);
  }
}

/** One declared row command: asks first when it declares a confirmation, shows the outcome, reloads the lists. */
export function RowCommandButton({ entity, command, row, onDone }: { entity: EntityDeclaration; command: RowCommandDeclaration; row: CrudRow; onDone: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [busy, setBusy] = useState(false);
  const name = String(row[entity.labelField] ?? row.id);

  const run = async () => {
    setBusy(true);
    try {
      const envelope = await runRowCommand(command, row.id);
      if (!envelope.success) {
        void (command.refusalAsWarning ? message.warning(envelope.message) : message.error(envelope.message));
        return;
      }
      void message.success(envelope.message);
      const shown = command.showResult ? (envelope.result as Record<string, unknown> | null)?.[command.showResult] : undefined;
      if (typeof shown === 'string' && shown !== '') {
        modal.info({ title: t(`${entity.name}.${command.showResult}`), content: <Typography.Text copyable code>{shown}</Typography.Text>, okText: t('common.ok') });
      }
      onDone();
    } catch (error) {
      // the request layer has shown an HTTP failure; a refusal of the command itself is a warning when declared so
      if (command.refusalAsWarning && error instanceof Error) void message.warning(error.message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Authorized code={permissionCode(entity, command.permission ?? command.name)}>
      <Button
        type="link"
        size="small"
        danger={command.danger}
        loading={busy}
        data-command={command.name}
        onClick={() => {
          if (!command.confirm) return void run();
          modal.confirm({
            title: t(command.label),
            content: t(command.confirm, { name }),
            okText: t('common.ok'),
            cancelText: t('common.cancel'),
            okButtonProps: { danger: command.danger },
            onOk: () => run(),
          });
        }}
      >
        {t(command.label)}
      </Button>
    </Authorized>
  );
}
