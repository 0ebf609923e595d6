import { peopleEntity } from '@isps/contract';
import { CrudScreen, type CrudExtension } from '../../../shared/crud/index.ts';
import { PeopleFreezeAction } from '../people-freeze-action.tsx';

const peopleExtension: CrudExtension = { RowActions: PeopleFreezeAction };

/** The people screen: the declared list (with its recycle bin) plus freezing and thawing each person. */
export default function PeoplePage() {
  return <CrudScreen entity={peopleEntity} extension={peopleExtension} />;
}
