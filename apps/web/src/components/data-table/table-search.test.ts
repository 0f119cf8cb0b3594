import { describe, expect, it } from 'vitest';
import { STATUSES } from '@app/contract';
import {
  dateFilter,
  defineTableSearch,
  idFilter,
  manyOf,
  oneOf,
  parseTableSearch,
  textFilter,
  toListQuery,
  writeTableSearch,
} from './table-search';

const config = defineTableSearch({
  filters: {
    search: textFilter(),
    status: oneOf(STATUSES),
    type: manyOf(['admin', 'super_hr'] as const),
    company_id: idFilter(),
    date_from: dateFilter(),
  },
  sortable: ['name'],
});

const parse = (search: string) => parseTableSearch(config, new URLSearchParams(search));

describe('the table state in the URL', () => {
  it('reads paging, sort and every kind of filter', () => {
    expect(
      parse(
        'page=3&page_size=50&sort=name&order=desc&search=%20acme%20&status=inactive&type=admin&type=super_hr&company_id=7&date_from=2026-02-28',
      ),
    ).toEqual({
      page: 3,
      pageSize: 50,
      sorting: [{ id: 'name', desc: true }],
      filters: {
        search: 'acme',
        status: 'inactive',
        type: ['admin', 'super_hr'],
        company_id: 7,
        date_from: '2026-02-28',
      },
    });
  });

  it('falls back to the defaults for anything invalid', () => {
    expect(
      parse(
        'page=0&page_size=13&sort=password&search=%20&status=deleted&type=hacker&company_id=-1&date_from=2026-02-30',
      ),
    ).toEqual({ page: 1, pageSize: 10, sorting: [], filters: {} });
    expect(parse('page=abc').page).toBe(1);
    expect(parse('type=admin&type=admin').filters.type).toEqual(['admin']);
  });

  it('writes defaults as nothing and keeps keys it does not own', () => {
    const params = writeTableSearch(config, new URLSearchParams('from=x&page=4'), {
      page: 1,
      pageSize: 10,
      sorting: [],
      filters: { search: '', status: undefined, type: [] as ('admin' | 'super_hr')[] },
    });
    expect(params.toString()).toBe('from=x');
  });

  it('round-trips a state through the URL', () => {
    const state = parse('page=2&page_size=20&sort=name&order=asc&status=active&type=admin');
    const written = writeTableSearch(config, new URLSearchParams(), state);
    expect(parse(written.toString())).toEqual(state);
    expect(written.getAll('type')).toEqual(['admin']);
  });

  it('builds the list query without empty values', () => {
    expect(toListQuery(parse('page=2&status=active'))).toEqual({
      page: 2,
      page_size: 10,
      status: 'active',
    });
    expect(toListQuery(parse('sort=name&order=desc'))).toEqual({
      page: 1,
      page_size: 10,
      sort: 'name',
      order: 'desc',
    });
  });
});
