import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { detailShape, type DetailDeclaration, type EntityDeclaration, type Language } from '@isps/contract';
import { Badge, Button, Card, Empty, Flex, Form, Grid, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { FormControl } from './field-control.tsx';
import { isRequired, fieldRules } from './zod-rules.ts';
import styles from './detail-lines.module.css';

interface DetailEditorProps {
  entity: EntityDeclaration;
  detail: DetailDeclaration;
  /** the form's name: antd gives each control the id `<form>_<detail>_<line>_<field>` */
  formName: string;
  lang: Language;
}

/** Puts the keyboard in the first control of a line once it is drawn (after add-line). */
function focusLater(id: string) {
  setTimeout(() => document.getElementById(id)?.focus(), 0);
}

/**
 * The lines of one detail as an editable list: on a desktop a table (a row per line, a column per field), on a phone a
 * card per line with its fields stacked. Add-line puts the keyboard in the new line; each line has its delete button.
 */
export function DetailLinesEditor({ entity, detail, formName, lang }: DetailEditorProps) {
  const { t } = useTranslation();
  const wide = Grid.useBreakpoint().md === true;
  const shape = detailShape(entity, detail);
  const first = detail.columns[0] ?? '';
  const lineTitle = (n: number) => t('crud.lineTitle', { line: t(detail.lineLabel), n });
  return (
    <Form.List name={detail.name}>
      {(lines, { add, remove }) => (
        <Flex vertical gap={8} data-detail={detail.name}>
          {lines.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('crud.noLines')} /> : null}
          {lines.length > 0 && wide ? (
            <div className={styles.table} role="table" aria-label={t(detail.title)} style={{ gridTemplateColumns: `3em repeat(${detail.columns.length}, minmax(0, 1fr)) auto` }}>
              <div role="row" className={styles.row}>
                <span role="columnheader" className={styles.head}>
                  {t('crud.lineNumber')}
                </span>
                {detail.columns.map((name) => (
                  <span role="columnheader" key={name} className={styles.head}>
                    {isRequired(detail.fields[name]!, 'add') ? <span className={styles.required}>*</span> : null}
                    {t(detail.fields[name]?.label ?? name)}
                  </span>
                ))}
                <span role="columnheader" className={styles.head} />
              </div>
              {lines.map((line, index) => (
                <div role="row" key={line.key} className={styles.row} aria-label={lineTitle(index + 1)}>
                  <span role="cell" className={styles.number}>
                    {index + 1}
                  </span>
                  {detail.columns.map((name) => {
                    const field = detail.fields[name]!;
                    const label = t(field.label);
                    return (
                      <div role="cell" key={name}>
                        {/* the column's header names the field for the eye; this label names it for a screen reader */}
                        <label htmlFor={`${formName}_${detail.name}_${line.name}_${name}`} className={styles.hidden}>
                          {`${lineTitle(index + 1)} ${label}`}
                        </label>
                        <Form.Item name={[line.name, name]} rules={fieldRules(field, { mode: 'add', label, lang })} validateFirst className={styles.cell}>
                          <FormControl entity={shape} name={name} mode="add" />
                        </Form.Item>
                      </div>
                    );
                  })}
                  <span role="cell">
                    <Button type="text" danger icon={<DeleteOutlined />} data-command="deleteLine" aria-label={t('crud.deleteLine', { n: index + 1 })} title={t('crud.deleteLine', { n: index + 1 })} onClick={() => remove(line.name)} />
                  </span>
                </div>
              ))}
            </div>
          ) : null}
          {lines.length > 0 && !wide
            ? lines.map((line, index) => (
                <Card
                  key={line.key}
                  size="small"
                  title={lineTitle(index + 1)}
                  extra={<Button type="text" danger icon={<DeleteOutlined />} data-command="deleteLine" aria-label={t('crud.deleteLine', { n: index + 1 })} onClick={() => remove(line.name)} />}
                >
                  {detail.columns.map((name) => {
                    const field = detail.fields[name]!;
                    const label = t(field.label);
                    return (
                      <Form.Item key={name} name={[line.name, name]} label={label} required={isRequired(field, 'add')} rules={fieldRules(field, { mode: 'add', label, lang })} validateFirst>
                        <FormControl entity={shape} name={name} mode="add" />
                      </Form.Item>
                    );
                  })}
                </Card>
              ))
            : null}
          <div>
            <Button
              icon={<PlusOutlined />}
              data-command="addLine"
              onClick={() => {
                add({});
                focusLater(`${formName}_${detail.name}_${lines.length}_${first}`);
              }}
            >
              {t('crud.addLine')}
            </Button>
          </div>
        </Flex>
      )}
    </Form.List>
  );
}

/** One tab per detail below the form's fields, each showing how many lines it holds. */
export function DetailTabs({ entity, formName, lang }: Omit<DetailEditorProps, 'detail'>) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const details = entity.details ?? [];
  const counts = Form.useWatch((values: Record<string, unknown>) => details.map((d) => (Array.isArray(values[d.name]) ? (values[d.name] as unknown[]).length : 0)), form);
  if (details.length === 0) return null;
  return (
    <Tabs
      items={details.map((detail, index) => ({
        key: detail.name,
        label: (
          <Flex gap={6} align="center">
            {t(detail.title)}
            <Badge count={counts?.[index] ?? 0} showZero size="small" />
          </Flex>
        ),
        // every detail's lines are validated and sent, whichever tab is open
        forceRender: true,
        children: <DetailLinesEditor entity={entity} detail={detail} formName={formName} lang={lang} />,
      }))}
    />
  );
}
