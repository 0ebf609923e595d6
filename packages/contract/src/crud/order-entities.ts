import * as z from 'zod';
import { isValidIdCard } from '../visitor.ts';
import type { EntityDeclaration, FieldDeclaration } from './declaration.ts';
import { field, phoneSchema, timeSchema } from './fields.ts';
import { libraryPattern } from './rule-library.ts';

/** The origin's order types (jeecg-boot's demo JeecgOrderMain.ctype): 1 domestic, 2 international. */
export const ORDER_TYPES = [
  { value: '1', label: 'order.ctype.domestic' },
  { value: '2', label: 'order.ctype.international' },
] as const;

const dateField = (label: string, extra: Partial<FieldDeclaration> = {}): FieldDeclaration => ({ label, kind: 'date', schema: timeSchema, widget: { kind: 'date' }, ...extra });

/**
 * The order list (SPEC section 2 'message: order list'; the origin's one-to-many demo under /test/jeecgOrderMain):
 * orders with their customers and their tickets, saved, deleted, exported and imported together. Field names and
 * routes keep the origin's spelling (telphone, tickectDate).
 */
export const orderEntity: EntityDeclaration = {
  name: 'order',
  title: 'order.title',
  basePath: '/test/jeecgOrderMain',
  permissionPrefix: 'message:order',
  component: 'message/order',
  labelField: 'orderCode',
  fields: {
    orderCode: field.code('order.field.orderCode', 50, { required: true }),
    ctype: { label: 'order.field.ctype', kind: 'string', schema: z.enum(['1', '2'], { error: 'validation.invalid' }), widget: { kind: 'options', options: ORDER_TYPES } },
    orderDate: dateField('order.field.orderDate'),
    orderMoney: { label: 'order.field.orderMoney', kind: 'string', schema: z.string().trim().max(16).regex(libraryPattern('money'), { error: 'validation.invalid' }), widget: { kind: 'input' } },
    content: field.text('order.field.content', 500),
  },
  columns: ['orderCode', 'ctype', 'orderDate', 'orderMoney', 'content'],
  phoneColumns: ['orderCode', 'orderDate'],
  detailFields: [],
  search: { orderCode: 'contains', ctype: 'exact', orderDate: 'range' },
  sortable: ['orderCode', 'ctype', 'orderDate', 'createTime'],
  defaultSort: { field: 'createTime', order: 'desc' },
  unique: [{ field: 'orderCode', message: 'duplicate.orderCode' }],
  tenantScoped: true,
  deleteWarning: 'order.deleteWarning',
  details: [
    {
      name: 'jeecgOrderCustomerList',
      title: 'order.customers',
      lineLabel: 'order.customer',
      path: '/queryOrderCustomerListByMainId',
      fields: {
        name: field.text('order.customer.field.name', 100, { required: true }),
        sex: field.dict('order.customer.field.sex', 'sex'),
        idcard: { label: 'order.customer.field.idcard', kind: 'string', schema: z.string().trim().toUpperCase().refine(isValidIdCard, { error: 'validation.idCard' }), widget: { kind: 'input' } },
        telphone: { label: 'order.customer.field.telphone', kind: 'string', schema: phoneSchema, widget: { kind: 'input' } },
      },
      columns: ['name', 'sex', 'idcard', 'telphone'],
    },
    {
      name: 'jeecgOrderTicketList',
      title: 'order.tickets',
      lineLabel: 'order.ticket',
      path: '/queryOrderTicketListByMainId',
      fields: {
        ticketCode: field.code('order.ticket.field.ticketCode', 100, { required: true }),
        tickectDate: dateField('order.ticket.field.tickectDate'),
      },
      columns: ['ticketCode', 'tickectDate'],
    },
  ],
};

export const orderEntities: readonly EntityDeclaration[] = [orderEntity];

export const orderLabels: Record<string, readonly [enUS: string, zhCN: string, jaJP: string]> = {
  'order.title': ['Orders', '订单列表', '注文一覧'],
  'order.field.orderCode': ['Order number', '订单号', '注文番号'],
  'order.field.ctype': ['Order type', '订单类型', '注文種別'],
  'order.field.orderDate': ['Order date', '订单日期', '注文日'],
  'order.field.orderMoney': ['Order amount', '订单金额', '注文金額'],
  'order.field.content': ['Remarks', '订单备注', '備考'],
  'order.ctype.domestic': ['Domestic order', '国内订单', '国内注文'],
  'order.ctype.international': ['International order', '国际订单', '国際注文'],
  'order.deleteWarning': ["The order's customers and tickets are deleted with it.", '订单的客户和机票将一并删除。', '注文の顧客とチケットも一緒に削除されます。'],
  'order.customers': ['Customers', '客户信息', '顧客'],
  'order.customer': ['Customer', '客户', '顧客'],
  'order.customer.field.name': ['Customer name', '客户名', '顧客名'],
  'order.customer.field.sex': ['Gender', '性别', '性別'],
  'order.customer.field.idcard': ['ID card number', '身份证号', '身分証番号'],
  'order.customer.field.telphone': ['Phone', '电话', '電話番号'],
  'order.tickets': ['Tickets', '机票信息', 'チケット'],
  'order.ticket': ['Ticket', '机票', 'チケット'],
  'order.ticket.field.ticketCode': ['Flight number', '航班号', '便名'],
  'order.ticket.field.tickectDate': ['Flight date', '航班时间', '搭乗日'],
};
