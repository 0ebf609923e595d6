import { ApiOutlined, DeleteOutlined, LockOutlined, UploadOutlined } from '@ant-design/icons';
import { fileExtension, FLOOR_PLAN_MAX_BYTES, uploadAccept, UploadKinds, type FloorPlan, type FloorPlanItem, type FloorPlanPlacement } from '@isps/contract';
import { useQueryClient } from '@tanstack/react-query';
import { App, Alert, Button, Col, Empty, List, Row, Skeleton, Space, Tag, Typography, Upload } from 'antd';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../shared/ui/index.ts';
import { doorFloorPlansKey, floorPlanKey, removeFloorPlanImage, saveFloorPlan, uploadFloorPlan, useFloorPlan } from '../api/floor-plan.ts';
import { fractionAt, isInside, movedByKey, placementKey } from './plan-geometry.ts';
import { markerPlace, PlanImage } from './plan-image.tsx';

const kindColors = { door: '#1677ff', device: '#722ed1' } as const;

function KindIcon({ kind }: { kind: FloorPlanItem['kind'] }) {
  return kind === 'door' ? <LockOutlined /> : <ApiOutlined />;
}

/** A marker the operator drags, or selects and moves with the arrow keys (Delete takes it off the plan). */
export function EditorMarker({ item, placement, selected, onSelect, onMove, onRemove, onDrag }: {
  item: FloorPlanItem;
  placement: FloorPlanPlacement;
  selected: boolean;
  onSelect: () => void;
  onMove: (next: FloorPlanPlacement) => void;
  onRemove: () => void;
  /** a pointer drag: the place under the pointer, or null when it is off the plan */
  onDrag: (clientX: number, clientY: number) => void;
}) {
  const { t } = useTranslation();
  const dragging = useRef(false);
  const keyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      return onRemove();
    }
    const next = movedByKey(placement, event.key, event.shiftKey);
    if (!next) return;
    event.preventDefault();
    onMove(next);
  };
  const down = (event: ReactPointerEvent<HTMLButtonElement>) => {
    if (event.button !== 0) return;
    dragging.current = true;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    onSelect();
  };
  const move = (event: ReactPointerEvent<HTMLButtonElement>) => {
    if (dragging.current) onDrag(event.clientX, event.clientY);
  };
  const up = (event: ReactPointerEvent<HTMLButtonElement>) => {
    dragging.current = false;
    event.currentTarget.releasePointerCapture?.(event.pointerId);
  };
  const kindName = t(`floorPlan.kind.${item.kind}`);
  return (
    <button
      type="button"
      data-marker={placementKey(item)}
      data-x={placement.x}
      data-y={placement.y}
      aria-pressed={selected}
      aria-label={t('floorPlan.marker', { kind: kindName, name: item.name })}
      onKeyDown={keyDown}
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={up}
      onFocus={onSelect}
      style={{
        ...markerPlace(placement.x, placement.y),
        display: 'inline-flex',
        alignItems: 'center',
        gap: 4,
        maxWidth: 160,
        padding: '2px 6px',
        borderRadius: 12,
        border: `2px solid ${selected ? '#fa8c16' : kindColors[item.kind]}`,
        background: '#fff',
        color: kindColors[item.kind],
        fontSize: 12,
        cursor: 'grab',
        touchAction: 'none',
        boxShadow: selected ? '0 0 0 3px rgba(250, 140, 22, 0.35)' : '0 1px 3px rgba(0, 0, 0, 0.25)',
        whiteSpace: 'nowrap',
        overflow: 'hidden',
        textOverflow: 'ellipsis',
      }}
    >
      <KindIcon kind={item.kind} />
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{item.name}</span>
    </button>
  );
}

interface Dragged {
  item: FloorPlanItem;
  x: number;
  y: number;
}

/** The plan of one area loaded: image, markers, the side list of what is not placed yet, and Save. */
function Editor({ plan, onSaved }: { plan: FloorPlan; onSaved: () => void }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const client = useQueryClient();
  const [placements, setPlacements] = useState<FloorPlanPlacement[]>(plan.placements);
  const [selected, setSelected] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [dragged, setDragged] = useState<Dragged | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const items = useMemo(() => new Map(plan.items.map((i) => [placementKey(i), i])), [plan.items]);
  const placed = new Set(placements.map(placementKey));
  const unplaced = plan.items.filter((i) => !placed.has(placementKey(i)));

  const change = (next: FloorPlanPlacement[]) => {
    setPlacements(next);
    setDirty(true);
  };
  const put = (placement: FloorPlanPlacement) => change([...placements.filter((p) => placementKey(p) !== placementKey(placement)), placement]);
  const remove = (key: string) => {
    change(placements.filter((p) => placementKey(p) !== key));
    setSelected(null);
  };
  const placeAt = (item: FloorPlanItem, clientX: number, clientY: number) => {
    const rect = box.current?.getBoundingClientRect();
    if (!rect || !isInside(clientX, clientY, rect)) return;
    const at = fractionAt(clientX, clientY, rect);
    if (!at) return;
    put({ kind: item.kind, id: item.id, ...at });
    setSelected(placementKey(item));
  };

  // a drag from the side list: the item follows the pointer and lands where it is let go over the plan
  useEffect(() => {
    if (!dragged) return;
    const move = (event: PointerEvent) => setDragged((d) => (d ? { ...d, x: event.clientX, y: event.clientY } : d));
    const up = (event: PointerEvent) => {
      placeAt(dragged.item, event.clientX, event.clientY);
      setDragged(null);
    };
    const cancel = () => setDragged(null);
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', cancel);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', cancel);
    };
    // placeAt reads the latest placements through the closure of this drag
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dragged?.item, placements]);

  const save = async () => {
    setSaving(true);
    try {
      const envelope = await saveFloorPlan(plan.areaId, placements);
      if (!envelope.success) return void message.error(envelope.message);
      void message.success(envelope.message);
      setDirty(false);
      // the plan opened again starts from what was saved
      client.setQueryData<FloorPlan>(floorPlanKey(plan.areaId), (held) => (held ? { ...held, placements: envelope.result } : held));
      void client.invalidateQueries({ queryKey: doorFloorPlansKey });
      onSaved();
    } catch {
      // the request layer has shown why
    } finally {
      setSaving(false);
    }
  };

  const upload = async (file: File) => {
    if (!(UploadKinds.image as readonly string[]).includes(fileExtension(file.name))) return void message.error(t('floorPlan.notImage'));
    if (file.size > FLOOR_PLAN_MAX_BYTES) return void message.error(t('floorPlan.tooLarge'));
    setUploading(true);
    try {
      const envelope = await uploadFloorPlan(plan.areaId, file);
      if (!envelope.success) return void message.error(envelope.message);
      void message.success(envelope.message);
      await client.invalidateQueries({ queryKey: floorPlanKey(plan.areaId) });
      void client.invalidateQueries({ queryKey: doorFloorPlansKey });
    } catch {
      // the request layer has shown why
    } finally {
      setUploading(false);
    }
  };

  const removeImage = () =>
    modal.confirm({
      title: t('floorPlan.removeImage'),
      content: t('floorPlan.removeImageConfirm', { name: plan.areaName }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: async () => {
        const envelope = await removeFloorPlanImage(plan.areaId);
        if (!envelope.success) return void message.error(envelope.message);
        void message.success(envelope.message);
        await client.invalidateQueries({ queryKey: floorPlanKey(plan.areaId) });
        void client.invalidateQueries({ queryKey: doorFloorPlansKey });
      },
    });

  const selectedItem = selected ? items.get(selected) : undefined;
  return (
    <div data-testid="floor-plan-editor">
      <Space wrap style={{ marginBottom: 12 }}>
        <Upload accept={uploadAccept('image')} showUploadList={false} beforeUpload={(file) => (void upload(file), false)}>
          <Button icon={<UploadOutlined />} loading={uploading} data-testid="floor-plan-upload">
            {t(plan.image ? 'floorPlan.replace' : 'floorPlan.upload')}
          </Button>
        </Upload>
        {plan.image ? (
          <Button danger icon={<DeleteOutlined />} onClick={removeImage}>
            {t('floorPlan.removeImage')}
          </Button>
        ) : null}
        {dirty ? <Tag color="orange">{t('floorPlan.unsaved')}</Tag> : null}
        <Button type="primary" loading={saving} disabled={!plan.image || !dirty} onClick={() => void save()} data-testid="floor-plan-save">
          {t('crud.save')}
        </Button>
      </Space>
      {plan.image ? (
        <Row gutter={[16, 16]}>
          <Col xs={24} lg={17}>
            <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
              {t('floorPlan.howTo')}
            </Typography.Paragraph>
            <PlanImage ref={box} image={plan.image} alt={t('floorPlan.planImage', { name: plan.areaName })} testId="floor-plan-canvas">
              {placements.map((p) => {
                const key = placementKey(p);
                const item = items.get(key);
                if (!item) return null;
                return (
                  <EditorMarker
                    key={key}
                    item={item}
                    placement={p}
                    selected={selected === key}
                    onSelect={() => setSelected(key)}
                    onMove={put}
                    onRemove={() => remove(key)}
                    onDrag={(clientX, clientY) => {
                      const rect = box.current?.getBoundingClientRect();
                      const at = rect ? fractionAt(clientX, clientY, rect) : null;
                      if (at) put({ ...p, ...at });
                    }}
                  />
                );
              })}
            </PlanImage>
            <Space wrap style={{ marginTop: 8 }}>
              {selectedItem ? <Typography.Text>{t('floorPlan.selected', { name: selectedItem.name })}</Typography.Text> : null}
              <Button size="small" icon={<DeleteOutlined />} disabled={!selectedItem} onClick={() => selected && remove(selected)} data-testid="floor-plan-take-off">
                {t('floorPlan.takeOff')}
              </Button>
            </Space>
          </Col>
          <Col xs={24} lg={7}>
            <Typography.Title level={5} style={{ marginTop: 0 }}>
              {t('floorPlan.unplaced')}
            </Typography.Title>
            {plan.items.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('floorPlan.noItems')} />
            ) : unplaced.length === 0 ? (
              <Typography.Text type="secondary">{t('floorPlan.allPlaced')}</Typography.Text>
            ) : (
              <List
                size="small"
                bordered
                dataSource={unplaced}
                data-testid="floor-plan-unplaced"
                renderItem={(item) => (
                  <List.Item
                    data-item={placementKey(item)}
                    tabIndex={0}
                    role="button"
                    aria-label={`${t(`floorPlan.kind.${item.kind}`)} ${item.name}`}
                    style={{ cursor: 'grab', touchAction: 'none', userSelect: 'none' }}
                    onPointerDown={(event) => {
                      if (event.button !== 0) return;
                      event.preventDefault();
                      setDragged({ item, x: event.clientX, y: event.clientY });
                    }}
                    onKeyDown={(event) => {
                      // the keyboard places it in the middle of the plan, where the arrow keys take it on
                      if (event.key !== 'Enter' && event.key !== ' ') return;
                      event.preventDefault();
                      put({ kind: item.kind, id: item.id, x: 0.5, y: 0.5 });
                      setSelected(placementKey(item));
                    }}
                  >
                    <Space>
                      <span style={{ color: kindColors[item.kind] }}>
                        <KindIcon kind={item.kind} />
                      </span>
                      <Typography.Text>{item.name}</Typography.Text>
                      <Tag>{t(`floorPlan.kind.${item.kind}`)}</Tag>
                    </Space>
                  </List.Item>
                )}
              />
            )}
          </Col>
        </Row>
      ) : (
        <Alert type="info" showIcon message={t('floorPlan.noImage')} />
      )}
      {dragged ? (
        <div aria-hidden style={{ position: 'fixed', left: dragged.x, top: dragged.y, transform: 'translate(-50%, -50%)', pointerEvents: 'none', zIndex: 2000, padding: '2px 8px', borderRadius: 12, background: '#fff', border: `2px dashed ${kindColors[dragged.item.kind]}`, fontSize: 12 }}>
          {dragged.item.name}
        </div>
      ) : null}
    </div>
  );
}

/** The floor-plan editor of an area: loads its plan, then edits it. */
export function FloorPlanEditor({ areaId, onSaved }: { areaId: string; onSaved: () => void }) {
  const plan = useFloorPlan(areaId);
  if (plan.isPending) return <Skeleton active />;
  if (plan.isError) return <LoadFailed onRetry={() => void plan.refetch()} />;
  // a new image (or none) starts from the places the server holds
  return <Editor key={plan.data.image ?? ''} plan={plan.data} onSaved={onSaved} />;
}
