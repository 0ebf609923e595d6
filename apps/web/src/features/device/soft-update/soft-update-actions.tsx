import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { useRowState, type CrudExtension, type CrudExtensionProps, type CrudRow } from '../../../shared/crud/index.ts';
import { PushPackageAction } from './push-package.tsx';
import { PushProgressDrawer } from './push-progress.tsx';
import { UploadPackageButton } from './upload-package.tsx';

/** A package row's push and its progress; a push opens the progress at once. */
function SoftUpdateRowActions({ row }: CrudExtensionProps & { row: CrudRow }) {
  const { t } = useTranslation();
  // kept by the screen: the progress stays open when the list turns from table to cards (a phone turned, a window narrowed)
  const [progressOpen, setProgressOpen] = useRowState(row.id, 'progress', false);
  return (
    <>
      <PushPackageAction row={row} onPushed={() => setProgressOpen(true)} />
      <Button type="link" size="small" data-command="progress" onClick={() => setProgressOpen(true)}>
        {t('softUpdate.progress')}
      </Button>
      {progressOpen ? <PushProgressDrawer row={row} onClose={() => setProgressOpen(false)} /> : null}
    </>
  );
}

/** The soft update screen beside the generic list: upload in the toolbar, push and progress on each row. */
export const softUpdateExtension: CrudExtension = { Toolbar: UploadPackageButton, RowActions: SoftUpdateRowActions };
