import type { MyVisit } from '@isps/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setFeedback } from '../../../shared/api/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import { MyVisits } from './my-visits.tsx';

const visit = (id: string, state: MyVisit['state'], extra: Partial<MyVisit> = {}): MyVisit => ({
  id,
  state,
  startTime: '2026-12-04 10:00:00',
  endTime: '2026-12-04 11:00:00',
  hostName: 'Host A',
  doorNames: [],
  remark: null,
  refuseReason: null,
  firstOpenTime: null,
  createTime: null,
  ...extra,
});

let answer: MyVisit[];
beforeEach(() => {
  setFeedback({ notify: vi.fn(), modal: vi.fn() });
  vi.stubGlobal('fetch', vi.fn(async () => Response.json({ success: true, code: 200, message: '', result: answer, timestamp: 1 })));
});
afterEach(() => vi.unstubAllGlobals());

describe('the visitor\'s own visits', () => {
  it('says there are none yet', async () => {
    answer = [];
    renderInConsole(<MyVisits />);
    expect(await screen.findByText('暂无来访记录，可向被访人申请来访。')).toBeTruthy();
  });

  it('shows each visit with its state, its doors or who picks them, the reason of a refusal, and a withdrawal for pending ones only', async () => {
    answer = [visit('1', 'requested'), visit('2', 'approved', { doorNames: ['Gate', 'Lift'] }), visit('3', 'refused', { refuseReason: 'Busy' })];
    renderInConsole(<MyVisits />);
    const list = await screen.findByTestId('my-visits');
    expect(within(list).getByText('待被访人审批')).toBeTruthy();
    expect(within(list).getByText('已批准')).toBeTruthy();
    expect(within(list).getByText(/Gate, Lift/)).toBeTruthy();
    expect(within(list).getAllByText(/由被访人指定/)).toHaveLength(2);
    expect(within(list).getByText('已拒绝：Busy')).toBeTruthy();
    // antd spaces out a two-character Chinese button text
    expect(within(list).getAllByRole('button', { name: /^撤\s?回$/ })).toHaveLength(1);
  });
});
