import type { DictOption } from '@isps/contract';
import type { FastifyInstance } from 'fastify';

function toOption(item: { item_value: string; item_text: string }): DictOption {
  return { value: item.item_value, text: item.item_text, label: item.item_text, title: item.item_text };
}

function itemsQuery(app: FastifyInstance) {
  return app.db
    .selectFrom('sys_dict_item as i')
    .innerJoin('sys_dict as d', 'd.id', 'i.dict_id')
    .select(['d.dict_code', 'i.item_value', 'i.item_text'])
    .where('d.del_flag', '=', 0)
    .where('i.status', '=', 1)
    .orderBy('d.dict_code')
    .orderBy('i.sort_order');
}

export async function dictOptions(app: FastifyInstance, code: string): Promise<DictOption[]> {
  const rows = await itemsQuery(app).where('d.dict_code', '=', code).execute();
  return rows.map(toOption);
}

export async function allDictOptions(app: FastifyInstance): Promise<Record<string, DictOption[]>> {
  const rows = await itemsQuery(app).execute();
  const byCode: Record<string, DictOption[]> = {};
  for (const row of rows) (byCode[row.dict_code] ??= []).push(toOption(row));
  return byCode;
}
