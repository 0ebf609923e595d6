import { ReloadOutlined } from '@ant-design/icons';
import { CabinetAttribute, CabinetStatus, cabinetEntity, permissionCode, StoragePerm, type CabinetTreeNode } from '@isps/contract';
import { Badge, Button, Card, Col, Descriptions, Empty, Flex, Popover, Row, Skeleton, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermissionCheck } from '../../../shared/permission/index.ts';
import { LoadFailed } from '../../../shared/ui/index.ts';
import { AllocateCabinetDialog } from '../allocate/allocate-dialog.tsx';
import { useCabinetTree } from '../api/cabinet-tree.ts';
import styles from './cabinet-tree.module.css';

/** The device area's cabinet screen grants allocation under its own code; the storage area's under the lockers'. */
const ALLOCATE_CODES = [permissionCode(cabinetEntity, 'allocate'), StoragePerm.deviceCabinetAllocate];

const statusNames = Object.fromEntries(Object.entries(CabinetStatus).map(([name, value]) => [value, name])) as Record<CabinetStatus, keyof typeof CabinetStatus>;
const attributeNames = Object.fromEntries(Object.entries(CabinetAttribute).map(([name, value]) => [value, name])) as Record<number, keyof typeof CabinetAttribute>;

/** A tile's look by state: free is plain, held is blue, held but emptied on the device (free to give again) is gold. */
const tileLooks: Record<CabinetStatus, { color: 'default' | 'blue' | 'gold'; variant: 'outlined' | 'solid' | 'filled'; tag: string }> = {
  [CabinetStatus.unassigned]: { color: 'default', variant: 'outlined', tag: 'default' },
  [CabinetStatus.assigned]: { color: 'blue', variant: 'solid', tag: 'blue' },
  [CabinetStatus.assignable]: { color: 'gold', variant: 'filled', tag: 'gold' },
};

const statusOf = (node: CabinetTreeNode): CabinetStatus => (node.status !== undefined && node.status in tileLooks ? node.status : CabinetStatus.unassigned);

/** The areas of the answer, each with its devices; devices at the top (one device asked for) form an area of their own. */
function areasOf(tree: CabinetTreeNode[]): Array<{ key: string; title: string; devices: CabinetTreeNode[] }> {
  const loose = tree.filter((node) => node.type === 'device');
  const areas = tree.filter((node) => node.type === 'area').map((area) => ({ key: area.key, title: area.title, devices: (area.children ?? []).filter((d) => d.type === 'device') }));
  return [...areas, ...(loose.length > 0 ? [{ key: 'devices', title: '', devices: loose }] : [])].filter((area) => area.devices.length > 0);
}

/** What a tile's details say: state, who it is for, its holders, and "Allocate" for those who may. */
function CabinetDetails({ node, canAllocate, onAllocate }: { node: CabinetTreeNode; canAllocate: boolean; onAllocate: () => void }) {
  const { t } = useTranslation();
  const status = statusOf(node);
  const attribute = node.attribute !== undefined ? attributeNames[node.attribute] : undefined;
  const holders = node.holders ?? [];
  return (
    <Flex vertical gap={8} style={{ maxWidth: 280 }} data-testid="cabinet-details">
      <Descriptions
        size="small"
        column={1}
        items={[
          { key: 'status', label: t('cabinet.field.status'), children: <Tag color={tileLooks[status].tag}>{node.status_dictText ?? t(`cabinet.status.${statusNames[status]}`)}</Tag> },
          ...(attribute ? [{ key: 'attribute', label: t('cabinet.field.attribute'), children: t(`cabinet.attribute.${attribute}`) }] : []),
          { key: 'holders', label: t('cabinet.field.peopleIds'), children: holders.length > 0 ? holders.join(', ') : t('cabinetTree.noHolders') },
        ]}
      />
      {canAllocate ? (
        <Button type="primary" size="small" data-command="allocate" onClick={onAllocate}>
          {t('cabinet.allocate')}
        </Button>
      ) : null}
    </Flex>
  );
}

/** One cabinet as a button coloured by its state: its number, state and holders; pressing it opens its details. */
function CabinetTile({ node, open, onOpenChange, canAllocate, onAllocate }: { node: CabinetTreeNode; open: boolean; onOpenChange: (open: boolean) => void; canAllocate: boolean; onAllocate: () => void }) {
  const { t } = useTranslation();
  const status = statusOf(node);
  const look = tileLooks[status];
  const holders = node.holders ?? [];
  return (
    <Popover
      trigger="click"
      open={open}
      onOpenChange={onOpenChange}
      title={node.title}
      content={<CabinetDetails node={node} canAllocate={canAllocate} onAllocate={onAllocate} />}
    >
      <Button className={styles.tile} color={look.color} variant={look.variant} data-cabinet-id={node.id} data-status={statusNames[status]} aria-expanded={open}>
        <span className={styles.tileNo}>{node.title}</span>
        <span>{node.status_dictText ?? t(`cabinet.status.${statusNames[status]}`)}</span>
        {holders.length > 0 ? <span className={styles.tileHolders}>{holders.join(', ')}</span> : null}
      </Button>
    </Popover>
  );
}

function DeviceCard({ device, openKey, setOpenKey, canAllocate, onAllocate }: { device: CabinetTreeNode; openKey: string | null; setOpenKey: (key: string | null) => void; canAllocate: boolean; onAllocate: (node: CabinetTreeNode) => void }) {
  const { t } = useTranslation();
  const cabinets = (device.children ?? []).filter((c) => c.type === 'cabinet');
  const held = cabinets.filter((c) => statusOf(c) === CabinetStatus.assigned).length;
  return (
    <Card
      size="small"
      title={device.title}
      data-device-id={device.id}
      extra={
        <Space size={4} wrap>
          {device.syncMode === 'full' ? <Tag color="purple">{t('cabinet.fullMode')}</Tag> : null}
          <Badge status={device.online ? 'success' : 'default'} text={t(device.online ? 'device.online' : 'device.offline')} />
        </Space>
      }
    >
      {cabinets.length === 0 ? (
        <Typography.Text type="secondary">{t('cabinetTree.noCabinets')}</Typography.Text>
      ) : (
        <Flex vertical gap={8}>
          <Typography.Text type="secondary">{t('cabinetTree.heldOf', { held, total: cabinets.length })}</Typography.Text>
          <div className={styles.tiles} role="group" aria-label={device.title}>
            {cabinets.map((node) => (
              <CabinetTile
                key={node.key}
                node={node}
                open={openKey === node.key}
                onOpenChange={(open) => setOpenKey(open ? node.key : null)}
                canAllocate={canAllocate}
                onAllocate={() => onAllocate(node)}
              />
            ))}
          </div>
        </Flex>
      )}
    </Card>
  );
}

/**
 * The cabinets by area and device: each device a card with its presence and sync mode, each cabinet a tile coloured
 * by its state with its holders; a tile's details offer "Allocate" to those who may allocate.
 */
export default function CabinetTreePage() {
  const { t } = useTranslation();
  const tree = useCabinetTree();
  const can = usePermissionCheck();
  const canAllocate = ALLOCATE_CODES.some((code) => can(code));
  const [openKey, setOpenKey] = useState<string | null>(null);
  const [allocating, setAllocating] = useState<CabinetTreeNode | null>(null);

  const refresh = (
    <Button icon={<ReloadOutlined spin={tree.isFetching && !tree.isPending} />} onClick={() => void tree.refetch()} aria-label={t('cabinetTree.refresh')} />
  );

  let body;
  if (tree.isPending) {
    body = (
      <div data-testid="cabinet-tree-loading">
        <Skeleton active />
      </div>
    );
  } else if (!tree.data) {
    body = <LoadFailed onRetry={() => void tree.refetch()} />;
  } else {
    const areas = areasOf(tree.data);
    body =
      areas.length === 0 ? (
        <Empty description={t('cabinet.treeEmpty')} />
      ) : (
        <Flex vertical gap={16}>
          <Flex wrap gap={4} role="group" aria-label={t('cabinet.field.status')}>
            {Object.values(CabinetStatus).map((status) => (
              <Tag key={status} color={tileLooks[status].tag}>
                {t(`cabinet.status.${statusNames[status]}`)}
              </Tag>
            ))}
          </Flex>
          {areas.map((area) => (
            <section key={area.key} aria-label={area.title || undefined} data-area-key={area.key}>
              {area.title ? (
                <Typography.Title level={5} style={{ marginTop: 0 }}>
                  {area.title}
                </Typography.Title>
              ) : null}
              <Row gutter={[12, 12]}>
                {area.devices.map((device) => (
                  <Col key={device.key} xs={24} lg={12} xxl={8}>
                    <DeviceCard
                      device={device}
                      openKey={openKey}
                      setOpenKey={setOpenKey}
                      canAllocate={canAllocate}
                      onAllocate={(node) => {
                        setOpenKey(null);
                        setAllocating(node);
                      }}
                    />
                  </Col>
                ))}
              </Row>
            </section>
          ))}
        </Flex>
      );
  }

  return (
    <Card title={t('cabinet.tree')} extra={refresh} data-testid="cabinet-tree">
      {body}
      {allocating ? (
        <AllocateCabinetDialog cabinet={{ id: allocating.id, cabinetNo: allocating.cabinetNo ?? allocating.title, attribute: allocating.attribute, peopleIds: allocating.holderIds }} onClose={() => setAllocating(null)} />
      ) : null}
    </Card>
  );
}
