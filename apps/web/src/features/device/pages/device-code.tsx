import { deviceCodeScreen } from '@isps/contract';
import { CrudScreen } from '../../../shared/crud/index.ts';

/** Device codes: issued per serial number, audited (agree issues the device key once), deleted. */
export default function DeviceCodePage() {
  return <CrudScreen entity={deviceCodeScreen} />;
}
