import { peopleEntity } from '@isps/contract';
import { CrudScreen, type CrudExtension, type CrudExtensionProps, type CrudRow } from '../../../shared/crud/index.ts';
import { PeopleEnrollAction } from '../people-enroll-action.tsx';
import { PeopleFreezeAction } from '../people-freeze-action.tsx';
import { ReadIdCardButton } from '../read-id-card-button.tsx';

function PeopleRowActions(props: CrudExtensionProps & { row: CrudRow }) {
  return (
    <>
      <PeopleFreezeAction {...props} />
      <PeopleEnrollAction {...props} />
    </>
  );
}

const peopleExtension: CrudExtension = { RowActions: PeopleRowActions, FormAddons: { idCard: ReadIdCardButton } };

/** The people screen: the declared list (with its recycle bin) plus freezing, palm-vein enrollment and ID card reading. */
export default function PeoplePage() {
  return <CrudScreen entity={peopleEntity} extension={peopleExtension} />;
}
