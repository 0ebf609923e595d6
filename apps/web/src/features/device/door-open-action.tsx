import { DeviceCommandStatus, DoorPerm } from '@isps/contract';
import { App, Button, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Authorized } from '../../shared/permission/index.ts';
import type { CrudExtensionProps, CrudRow } from '../../shared/crud/index.ts';
import { useDoorCommand, useOpenDoor } from './api/open-door.ts';

const statusColors: Record<DeviceCommandStatus, string> = { pending: 'default', sent: 'processing', acked: 'success', failed: 'error', expired: 'warning' };

/** How far the door's last remote opening got: queued, sent to the device, confirmed by it, failed, or expired untaken. */
function CommandProgress({ commandId }: { commandId: string }) {
  const { t } = useTranslation();
  const command = useDoorCommand(commandId);
  const status = command.data?.status ?? DeviceCommandStatus.pending;
  return (
    <Tag color={statusColors[status]} data-testid="door-command-status" data-status={status}>
      {t(`door.command.${status}`)}
    </Tag>
  );
}

/** A door row's remote opening (device:door:open): asks first, queues the command, then follows it to the device's answer. */
export function DoorOpenAction({ row }: CrudExtensionProps & { row: CrudRow }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const open = useOpenDoor();
  const [commandId, setCommandId] = useState<string | null>(null);
  const name = String(row.doorName ?? row.id);

  const run = async () => {
    try {
      const envelope = await open.mutateAsync(row.id);
      if (!envelope.success) return void message.error(envelope.message);
      void message.success(envelope.message);
      setCommandId(envelope.result.commandId);
    } catch {
      // the request layer has shown why
    }
  };

  return (
    <Authorized code={DoorPerm.open}>
      <Button
        type="link"
        size="small"
        loading={open.isPending}
        data-command="open"
        onClick={() =>
          modal.confirm({
            title: t('door.remoteOpen'),
            content: t('door.openConfirm', { name }),
            okText: t('common.ok'),
            cancelText: t('common.cancel'),
            onOk: () => run(),
          })
        }
      >
        {t('door.remoteOpen')}
      </Button>
      {commandId ? <CommandProgress key={commandId} commandId={commandId} /> : null}
    </Authorized>
  );
}
