import type { EntityDeclaration } from '@isps/contract';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { CrudScreen, type CrudExtension } from '../../shared/crud/index.ts';
import { useCaptureDevices } from './api/capture-devices.ts';
import { alarmExtension } from './alarm/alarm-actions.tsx';
import { areaExtension } from './floor-plan/floor-plan-action.tsx';
import { logFileExtension } from './log-file-actions.tsx';
import { softUpdateExtension } from './soft-update/soft-update-actions.tsx';

/** The current capture device, beside the toolbar (it changes with the row command "set as capture device"). */
function CaptureDeviceTag() {
  const { t } = useTranslation();
  const capture = useCaptureDevices();
  const current = capture.data?.records.find((r) => r.id === capture.data?.capDevice);
  return (
    <Tag color={current ? 'blue' : 'default'} data-testid="capture-device">
      {t('device.captureDevice')}: {current ? `${current.title} (${current.sn})` : t('device.captureNone')}
    </Tag>
  );
}

const extensions: Record<string, CrudExtension> = { device: { Toolbar: CaptureDeviceTag }, softUpdate: softUpdateExtension, deviceLogFile: logFileExtension, alarm: alarmExtension, area: areaExtension };

/** The device area's declared screens: the generic screen plus the device list's capture device and the soft update's upload and push. */
export function DeviceEntityScreen({ entity }: { entity: EntityDeclaration }) {
  return <CrudScreen key={entity.name} entity={entity} extension={extensions[entity.name]} />;
}
