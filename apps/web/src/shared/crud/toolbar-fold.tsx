import { EllipsisOutlined } from '@ant-design/icons';
import { Button, Flex, Grid, Popover, Space } from 'antd';
import { Children, isValidElement, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A list's toolbar: its buttons in a row, and on a phone the first one (the list's main action) beside one "More"
 * button that opens the others as a menu. The folded buttons are the same elements, so what they open (a dialog, a
 * file picker) works as in the row; they stay mounted once shown, so a dialog outlives the menu that opened it.
 */
export function ToolbarFold({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const wide = Grid.useBreakpoint().md !== false;
  const [open, setOpen] = useState(false);
  const items = Children.toArray(children).filter(isValidElement);
  if (wide || items.length <= 2) return <Space wrap>{items}</Space>;
  const [first, ...rest] = items;
  return (
    <Space>
      {first}
      <Popover
        trigger="click"
        placement="bottomLeft"
        open={open}
        onOpenChange={setOpen}
        arrow={false}
        content={
          // a click on one of them is the choice: the menu closes (its dialog, if any, is rendered outside it)
          <Flex vertical gap={8} role="group" aria-label={t('crud.moreActions')} onClick={() => setOpen(false)} data-testid="toolbar-more-menu">
            {rest}
          </Flex>
        }
      >
        <Button icon={<EllipsisOutlined />} aria-expanded={open}>
          {t('crud.more')}
        </Button>
      </Popover>
    </Space>
  );
}
