import { deviceSettingEntity } from '@isps/contract';
import { CrudScreen } from '../../../shared/crud/index.ts';

/** The device settings screen: the declared list and form (weight, listen values and time window checked as the server checks them). */
export default function DeviceSettingPage() {
  return <CrudScreen entity={deviceSettingEntity} />;
}
