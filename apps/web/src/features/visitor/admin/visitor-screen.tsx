import type { EntityDeclaration } from '@isps/contract';
import { CrudScreen, FreezeToggle, type CrudExtension, type CrudExtensionProps, type CrudRow } from '../../../shared/crud/index.ts';
import { setVisitorStatus } from '../api/freeze-visitors.ts';

const texts = { freeze: 'visitorAdmin.freeze', thaw: 'visitorAdmin.thaw', confirm: 'visitorAdmin.freezeConfirm', hint: 'visitorAdmin.freezeHint' };

/** Freeze (after a confirmation: the visitor is signed out at once) or thaw one visitor. */
function FreezeAction(props: CrudExtensionProps & { row: CrudRow }) {
  return <FreezeToggle {...props} setStatus={setVisitorStatus} texts={texts} />;
}

const extension: CrudExtension = { RowActions: FreezeAction };

/** The staff's visitor list: the generic screen of the declaration plus freezing. */
export function VisitorEntityScreen({ entity }: { entity: EntityDeclaration }) {
  return <CrudScreen key={entity.name} entity={entity} extension={extension} />;
}
