import { UserAddOutlined, UserDeleteOutlined } from '@ant-design/icons';
import { DepartUserPerm, userEntity } from '@isps/contract';
import { App, Button, Modal } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudScreen, UserSelectModal, type CrudExtension, type CrudExtensionProps } from '../../../shared/crud/index.ts';
import { usePermissionCheck } from '../../../shared/permission/index.ts';
import { useDrawerSize } from '../../../shared/ui/index.ts';
import { useAddUsersToDepart, useRemoveUsersFromDepart } from '../api/depart-users.ts';
import styles from './group-users.module.css';

type ToolbarProps = CrudExtensionProps & { selected: string[]; clearSelection: () => void };

/** 'Add existing users' (the user selector) and 'Remove from group' for the checked members. */
function groupUsersToolbar(depId: string) {
  return function GroupUsersToolbar({ refresh, selected, clearSelection }: ToolbarProps) {
    const { t } = useTranslation();
    const { message, modal } = App.useApp();
    const can = usePermissionCheck();
    const add = useAddUsersToDepart();
    const remove = useRemoveUsersFromDepart();
    const [picking, setPicking] = useState(false);
    const fail = (error: Error) => void message.error(error.message);
    return (
      <>
        <Button icon={<UserAddOutlined />} onClick={() => setPicking(true)}>
          {t('groupUsers.addExisting')}
        </Button>
        {can(DepartUserPerm.remove) ? (
          <Button
            icon={<UserDeleteOutlined />}
            onClick={() => {
              if (selected.length === 0) return void message.warning(t('crud.selectRecord'));
              modal.confirm({
                title: t('groupUsers.removeConfirm', { count: selected.length }),
                okText: t('common.ok'),
                cancelText: t('common.cancel'),
                okButtonProps: { danger: true },
                onOk: () =>
                  remove
                    .mutateAsync({ depId, userIds: selected })
                    .then((envelope) => {
                      void message.success(envelope.message);
                      clearSelection();
                      refresh();
                    })
                    .catch(fail),
              });
            }}
          >
            {t('groupUsers.remove')}
          </Button>
        ) : null}
        {picking ? (
          <UserSelectModal
            title={t('groupUsers.addExisting')}
            confirmLoading={add.isPending}
            onCancel={() => setPicking(false)}
            onOk={(userIds) =>
              add
                .mutateAsync({ depId, userIds })
                .then((envelope) => {
                  void message.success(envelope.message);
                  setPicking(false);
                  refresh();
                })
                .catch(fail)
            }
          />
        ) : null}
      </>
    );
  };
}

/** The users of one group: the user screen fixed to the group, plus adding existing users and removing members. */
export function GroupUsersDialog({ depId, name, onClose }: { depId: string; name: string; onClose: () => void }) {
  const { t } = useTranslation();
  const onPhone = useDrawerSize() === '100%';
  const extension = useMemo<CrudExtension>(() => ({ Toolbar: groupUsersToolbar(depId), batch: true }), [depId]);
  return (
    <Modal
      open
      title={t('groupUsers.title', { name })}
      footer={null}
      width={onPhone ? '100%' : 1100}
      className={onPhone ? `${styles.members} ${styles.onPhone}` : styles.members}
      onCancel={onClose}
      destroyOnHidden
    >
      <CrudScreen entity={userEntity} fixed={{ selecteddeparts: depId }} extension={extension} embedded />
    </Modal>
  );
}
