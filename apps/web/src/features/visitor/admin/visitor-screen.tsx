import type { EntityDeclaration } from '@isps/contract';
import { CrudScreen, FreezeToggle, type CrudExtension, type CrudExtensionProps, type CrudRow } from '../../../shared/crud/index.ts';
import { setVisitorStatus } from '../api/freeze-visitors.ts';
import { ArrivalAction, DeskToolbarButton } from '../desk/desk-actions.tsx';
import { VisitDecision } from './visit-decision.tsx';

const texts = { freeze: 'visitorAdmin.freeze', thaw: 'visitorAdmin.thaw', confirm: 'visitorAdmin.freezeConfirm', hint: 'visitorAdmin.freezeHint' };

/** Freeze (after a confirmation: the visitor is signed out at once) or thaw one visitor. */
function FreezeAction(props: CrudExtensionProps & { row: CrudRow }) {
  return <FreezeToggle {...props} setStatus={setVisitorStatus} texts={texts} />;
}

const extension: CrudExtension = { RowActions: FreezeAction };

/** A visit row: the host's decision on a request, and the arrival at the desk. */
function VisitRowActions(props: CrudExtensionProps & { row: CrudRow }) {
  return (
    <>
      <VisitDecision {...props} />
      <ArrivalAction {...props} />
    </>
  );
}

/** The visit list decides requests and opens the arrivals desk: for a row's visit, or from the toolbar for whoever arrives. */
const visitExtension: CrudExtension = { RowActions: VisitRowActions, Toolbar: DeskToolbarButton };

const extensionOf = (entity: EntityDeclaration): CrudExtension | undefined =>
  entity.extraActions?.includes('frozen') ? extension : entity.extraActions?.includes('desk') ? visitExtension : undefined;

/** The staff's visitor screens: the generic screen of each declaration, plus freezing (visitors), the host's decision and the desk (visits). */
export function VisitorEntityScreen({ entity }: { entity: EntityDeclaration }) {
  const added = extensionOf(entity);
  return <CrudScreen key={entity.name} entity={entity} {...(added ? { extension: added } : {})} />;
}
