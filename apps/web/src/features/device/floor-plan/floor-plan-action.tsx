import { areaEntity, permissionCode } from '@isps/contract';
import { Button, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { create } from 'zustand';
import type { CrudExtension, CrudExtensionProps, CrudRow } from '../../../shared/crud/index.ts';
import { Authorized, usePermission } from '../../../shared/permission/index.ts';
import { FloorPlanEditor } from './floor-plan-editor.tsx';

/**
 * The area whose plan is open. The editor lives beside the list, not in the row: a row is drawn anew when the list
 * turns into cards on a narrow window, and the plan being edited stays open through that.
 */
const useOpenPlan = create<{ area: { id: string; name: string } | null; open: (area: { id: string; name: string } | null) => void }>((set) => ({
  area: null,
  open: (area) => set({ area }),
}));

/** An area row's "Floor plan", for holders of device:area:edit. */
function FloorPlanAction({ row }: CrudExtensionProps & { row: CrudRow }) {
  const { t } = useTranslation();
  const open = useOpenPlan((s) => s.open);
  return (
    <Authorized code={permissionCode(areaEntity, 'edit')}>
      <Button type="link" size="small" data-command="floorPlan" onClick={() => open({ id: row.id, name: String(row.areaName ?? row.id) })}>
        {t('floorPlan.action')}
      </Button>
    </Authorized>
  );
}

/** The list's title, and the open area's plan editor: its image with its doors and devices placed on it. */
function AreaTitle({ entity }: CrudExtensionProps) {
  const { t } = useTranslation();
  const area = useOpenPlan((s) => s.area);
  const open = useOpenPlan((s) => s.open);
  const mayEdit = usePermission(permissionCode(areaEntity, 'edit'));
  // leaving the screen closes the plan
  useEffect(() => () => open(null), [open]);
  return (
    <>
      {t(entity.title)}
      {area && mayEdit ? (
        <Modal open title={t('floorPlan.title', { name: area.name })} width="min(1200px, calc(100vw - 16px))" style={{ top: 24, maxWidth: 'calc(100vw - 16px)' }} onCancel={() => open(null)} footer={null} destroyOnHidden>
          <FloorPlanEditor areaId={area.id} onSaved={() => undefined} />
        </Modal>
      ) : null}
    </>
  );
}

export const areaExtension: CrudExtension = { RowActions: FloorPlanAction, Title: AreaTitle };
