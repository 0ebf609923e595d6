import { describe, expect, it } from 'vitest';
import { deviceReceipt, seqRanges } from './device.ts';

describe('event receipts', () => {
  it('name sequence numbers as sorted inclusive ranges', () => {
    expect(seqRanges([])).toEqual([]);
    expect(seqRanges([7, 1, 2, 3, 3, 9, 8, 12])).toEqual([
      [1, 3],
      [7, 9],
      [12, 12],
    ]);
    expect(deviceReceipt.safeParse({ id: 'r1', seqs: seqRanges([4, 5]) }).success).toBe(true);
    expect(deviceReceipt.safeParse({ id: 'r1', seqs: [[1]] }).success).toBe(false);
  });
});
