import { categoryEntity, positionEntity, vendorEntity } from '@isps/contract';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { setSiteTimeZone } from '../time/index.ts';
import { exportParams, filterParams, isFiltered, listParams, superQueryParams } from './query-params.ts';

describe('list query parameters', () => {
  it('sends paging, a whitelisted sort and only declared search fields', () => {
    const params = listParams(positionEntity, {
      pageNo: 2,
      pageSize: 20,
      sort: { field: 'code', order: 'asc' },
      filters: { code: '  P-0 ', name: '', postRank: '3', unknown: 'x' },
    });
    expect(params).toEqual({ pageNo: 2, pageSize: 20, column: 'code', order: 'asc', code: 'P-0', postRank: '3' });
  });

  it('drops a sort on a field the declaration does not allow', () => {
    expect(listParams(positionEntity, { pageNo: 1, pageSize: 10, sort: { field: 'id; drop table', order: 'desc' }, filters: {} })).toEqual({ pageNo: 1, pageSize: 10 });
  });

  it('turns a day range into _begin/_end covering whole days in the user zone, sent in the site zone', () => {
    setSiteTimeZone('Asia/Tokyo');
    const from = dayjs('2024-03-01T15:00:00');
    const to = dayjs('2024-03-05T09:00:00');
    const inTokyo = (day: dayjs.Dayjs) => day.tz('Asia/Tokyo').format('YYYY-MM-DD HH:mm:ss');
    const params = filterParams(positionEntity, { createTime: [from, to] });
    expect(params).toEqual({ createTime_begin: inTokyo(from.startOf('day')), createTime_end: inTokyo(to.endOf('day')) });
    expect(filterParams(positionEntity, { createTime: [from, null] })).toEqual({ createTime_begin: inTokyo(from.startOf('day')) });
    setSiteTimeZone(null);
  });

  it('keeps numeric ranges as numbers', () => {
    expect(filterParams(vendorEntity, { gatherOffset: [-5, 30] })).toEqual({ gatherOffset_begin: -5, gatherOffset_end: 30 });
    expect(filterParams(vendorEntity, { gatherOffset: [null, 30] })).toEqual({ gatherOffset_end: 30 });
  });

  it('joins several picked values with commas (one of)', () => {
    expect(filterParams(positionEntity, { postRank: ['1', '2'] })).toEqual({ postRank: '1,2' });
  });

  it('adds fixed filters (items of one dictionary)', () => {
    expect(filterParams(categoryEntity, { name: 'a' }, { pid: 'root' })).toEqual({ name: 'a', pid: 'root' });
  });

  it('sends complete super query conditions as JSON with the match type', () => {
    const params = superQueryParams({
      matchType: 'or',
      conditions: [
        { field: 'code', rule: 'like', val: 'P' },
        { field: 'name', rule: 'eq', val: '' },
        { field: 'postRank', rule: 'empty', val: 'ignored' },
      ],
    });
    expect(params.superQueryMatchType).toBe('or');
    expect(JSON.parse(String(params.superQueryParams))).toEqual([
      { field: 'code', rule: 'like', val: 'P' },
      { field: 'postRank', rule: 'empty' },
    ]);
    expect(superQueryParams({ matchType: 'and', conditions: [{ field: 'code', rule: 'eq', val: '' }] })).toEqual({});
    expect(superQueryParams(null)).toEqual({});
  });

  it('exports with the list filters and order but without the page', () => {
    const state = { pageNo: 3, pageSize: 50, sort: { field: 'name', order: 'desc' as const }, filters: { name: 'x' }, superQuery: { matchType: 'and' as const, conditions: [{ field: 'code', rule: 'ne' as const, val: 'a' }] } };
    const params = exportParams(positionEntity, state);
    expect(params).toMatchObject({ column: 'name', order: 'desc', name: 'x', superQueryMatchType: 'and' });
    expect(params).not.toHaveProperty('pageNo');
    expect(params).not.toHaveProperty('pageSize');
  });

  it('says whether a search narrows the rows (a tree then lists flat)', () => {
    expect(isFiltered(categoryEntity, { filters: { name: ' ' } })).toBe(false);
    expect(isFiltered(categoryEntity, { filters: { name: 'a' } })).toBe(true);
    expect(isFiltered(categoryEntity, { filters: {}, superQuery: { matchType: 'and', conditions: [{ field: 'code', rule: 'not_empty' }] } })).toBe(true);
  });
});
