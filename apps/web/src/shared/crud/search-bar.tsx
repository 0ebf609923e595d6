import { FilterOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Col, Form, Grid, Row, Space } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** One search condition: the form field's name, its label and its control (input, select, picker...). */
export interface SearchField {
  name: string;
  label: ReactNode;
  control: ReactNode;
}

export interface SearchBarProps<V extends object> {
  /** the form's name (field ids are prefixed with it) */
  name: string;
  fields: SearchField[];
  onSearch: (values: V) => void;
  /** called after the fields are cleared */
  onReset: () => void;
}

// one column per condition: a whole row on a phone, two on a tablet, three or four on a desktop
const COLUMN = { xs: 24, sm: 12, lg: 8, xl: 6 } as const;

/**
 * The search form of a list screen: labelled conditions in a responsive grid, then search and reset. On a phone
 * the conditions fold behind a "filters" button (the list comes first), and unfolded every control and the buttons
 * line up on one left edge at the full width.
 */
export function SearchBar<V extends object>({ name, fields, onSearch, onReset }: SearchBarProps<V>) {
  const { t } = useTranslation();
  const [form] = Form.useForm<V>();
  const phone = Grid.useBreakpoint().md === false;
  const [unfolded, setUnfolded] = useState(false);
  const [active, setActive] = useState(0);
  const folded = phone && !unfolded;
  const formId = `${name}-conditions`;
  return (
    <>
      {phone ? (
        <Button icon={<FilterOutlined />} aria-expanded={unfolded} aria-controls={formId} onClick={() => setUnfolded(!unfolded)} type={active > 0 ? 'primary' : 'default'} ghost={active > 0}>
          {active > 0 ? t('crud.filtersActive', { count: active }) : t('crud.filters')}
        </Button>
      ) : null}
      <Form
        form={form}
        id={formId}
        name={name}
        layout="vertical"
        hidden={folded}
        style={phone && !folded ? { marginTop: 12 } : undefined}
        onFinish={(values) => {
          setActive(Object.values(values as Record<string, unknown>).filter((v) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0)).length);
          onSearch(values);
        }}
        aria-label={t('crud.search')}
        role="search"
      >
        <Row gutter={16} align="bottom">
          {fields.map((field) => (
            <Col key={field.name} {...COLUMN}>
              <Form.Item name={field.name} label={field.label} style={{ marginBottom: 12 }}>
                {field.control}
              </Form.Item>
            </Col>
          ))}
          <Col {...COLUMN}>
            <Form.Item style={{ marginBottom: 12 }}>
              <Space>
                <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
                  {t('crud.search')}
                </Button>
                <Button
                  icon={<ReloadOutlined />}
                  onClick={() => {
                    form.resetFields();
                    setActive(0);
                    onReset();
                  }}
                >
                  {t('crud.reset')}
                </Button>
              </Space>
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </>
  );
}
