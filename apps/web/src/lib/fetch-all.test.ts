import { describe, expect, it } from 'vitest';
import { fetchAllPages } from './fetch-all';

describe('fetchAllPages', () => {
  it('reads pages of 50 until the total is reached', async () => {
    const asked: number[] = [];
    const rows = await fetchAllPages(async ({ page, page_size }) => {
      asked.push(page);
      const start = (page - 1) * page_size;
      const data = Array.from(
        { length: Math.max(0, Math.min(page_size, 120 - start)) },
        (_, i) => start + i,
      );
      return { data, total: 120 };
    });
    expect(asked).toEqual([1, 2, 3]);
    expect(rows).toHaveLength(120);
    expect(rows.at(-1)).toBe(119);
  });

  it('stops at a short page even when the total says more', async () => {
    let calls = 0;
    const rows = await fetchAllPages(async () => {
      calls += 1;
      return { data: [1, 2], total: 500 };
    });
    expect(calls).toBe(1);
    expect(rows).toEqual([1, 2]);
  });
});
