import { doorEntity } from '@isps/contract';
import { useSearchParams } from 'react-router';
import { CrudScreen, DetailDrawer, type CrudExtension } from '../../../shared/crud/index.ts';
import { DoorOpenAction } from '../door-open-action.tsx';

const doorExtension: CrudExtension = { RowActions: DoorOpenAction };

/**
 * The doors screen: the declared door list with a remote opening on each row. `?id=` (a door status card's link) opens
 * that door's details over the list.
 */
export default function DoorPage() {
  const [params, setParams] = useSearchParams();
  const linked = params.get('id');
  const close = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('id');
        return next;
      },
      { replace: true },
    );
  return (
    <>
      <CrudScreen entity={doorEntity} extension={doorExtension} />
      {linked ? <DetailDrawer key={linked} entity={doorEntity} row={{ id: linked }} onClose={close} /> : null}
    </>
  );
}
