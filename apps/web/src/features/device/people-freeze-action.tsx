import { FreezeToggle, type CrudExtensionProps, type CrudRow } from '../../shared/crud/index.ts';
import { setPeopleStatus } from './api/freeze-people.ts';

const texts = { freeze: 'people.freeze', thaw: 'people.thaw', confirm: 'people.freezeConfirm', hint: 'people.freezeHint' };

/** Freeze (after a confirmation) or thaw one person. */
export function PeopleFreezeAction(props: CrudExtensionProps & { row: CrudRow }) {
  return <FreezeToggle {...props} setStatus={setPeopleStatus} texts={texts} />;
}
