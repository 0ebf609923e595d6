import { doorEntity } from '@isps/contract';
import { CrudScreen, type CrudExtension } from '../../../shared/crud/index.ts';
import { DoorOpenAction } from '../door-open-action.tsx';

const doorExtension: CrudExtension = { RowActions: DoorOpenAction };

/** The doors screen: the declared door list with a remote opening on each row. */
export default function DoorPage() {
  return <CrudScreen entity={doorEntity} extension={doorExtension} />;
}
