import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { keepPreviousData, QueryClientProvider, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { useEffect, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { STATUSES, type Status } from '@app/contract';
import { transport } from '@/lib/transport';
import { browser } from '@/lib/browser';
import { downloadCsv } from '@/lib/download';
import { queryClient } from '@/lib/query-client';
import { server } from '@/test/server';
import {
  DataTable,
  DataTableColumnHeader,
  DataTableExportButton,
  DataTableFacetedFilter,
  DataTableRowActions,
  DataTableSearch,
  DataTableToolbar,
  defineTableSearch,
  manyOf,
  oneOf,
  StatusBadge,
  textFilter,
  useTableSearch,
  type ListResult,
} from './index';

interface Thing {
  id: number;
  name: string;
  status: Status;
}

const thingsSearch = defineTableSearch({
  filters: {
    search: textFilter(),
    status: oneOf(STATUSES),
    kind: manyOf(['fruit', 'tool', 'toy'] as const),
  },
  sortable: ['name'],
});

const columns: ColumnDef<Thing>[] = [
  {
    accessorKey: 'name',
    enableSorting: true,
    header: ({ column }) => <DataTableColumnHeader column={column} title="Name" />,
  },
  {
    accessorKey: 'status',
    header: 'Status',
    cell: ({ row }) => <StatusBadge status={row.original.status} />,
  },
];

function Things() {
  const table = useTableSearch(thingsSearch);
  const query = useQuery({
    queryKey: ['things', table.query],
    queryFn: async () =>
      (await transport.get<ListResult<Thing>>('/api/v1/things', { params: table.query })).data,
    placeholderData: keepPreviousData,
    meta: { silentError: true },
  });
  return (
    <DataTable
      columns={columns}
      query={query}
      paging={table}
      label="Things"
      toolbar={
        <DataTableToolbar
          table={table}
          actions={
            <DataTableExportButton
              onExport={() =>
                downloadCsv('/api/v1/exports/employees', { query: table.filters }, 'things.csv')
              }
            />
          }
        >
          <DataTableSearch table={table} filterKey="search" placeholder="Search things" />
          <DataTableFacetedFilter
            table={table}
            filterKey="status"
            title="Status"
            options={[
              { value: 'active', label: 'Active' },
              { value: 'inactive', label: 'Inactive' },
            ]}
          />
          <DataTableFacetedFilter
            table={table}
            filterKey="kind"
            title="Kind"
            options={[
              { value: 'fruit', label: 'Fruit' },
              { value: 'tool', label: 'Tool' },
              { value: 'toy', label: 'Toy' },
            ]}
          />
        </DataTableToolbar>
      }
    />
  );
}

const things = (count: number, offset = 0): Thing[] =>
  Array.from({ length: count }, (_, index) => ({
    id: offset + index + 1,
    name: `Thing ${offset + index + 1}`,
    status: index % 2 === 0 ? 'active' : 'inactive',
  }));

/** Answers the list with `total` rows in all, recording each request's query. */
function serveThings(total = 45) {
  const requests: URLSearchParams[] = [];
  server.use(
    http.get('/api/v1/things', ({ request }) => {
      const params = new URL(request.url).searchParams;
      requests.push(params);
      const page = Number(params.get('page'));
      const size = Number(params.get('page_size'));
      const start = (page - 1) * size;
      return HttpResponse.json({
        data: things(Math.max(0, Math.min(size, total - start)), start),
        total,
      });
    }),
  );
  return requests;
}

function renderThings(path = '/things') {
  const router = createMemoryRouter([{ path: '/things', element: <Things /> }], {
    initialEntries: [path],
  });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  const search = () => new URLSearchParams(router.state.location.search);
  return { router, search };
}

const lastQuery = (requests: URLSearchParams[]) =>
  Object.fromEntries([...(requests.at(-1)?.entries() ?? [])]);

/** Set by Rebuilding: re-renders it with brand-new columns. */
let rebuildColumns: () => void = () => {};

function Rebuilding() {
  const [round, setRound] = useState(0);
  useEffect(() => {
    rebuildColumns = () => setRound((value) => value + 1);
  }, []);
  const table = useTableSearch(thingsSearch);
  const query = useQuery({
    queryKey: ['things', table.query],
    queryFn: async () =>
      (await transport.get<ListResult<Thing>>('/api/v1/things', { params: table.query })).data,
  });
  // New column objects and renderers on every render, as when handlers or options change.
  const rebuilt: ColumnDef<Thing>[] = [
    { accessorKey: 'name', header: `Name ${round}` },
    {
      id: 'actions',
      cell: ({ row }) => (
        <DataTableRowActions
          name={row.original.name}
          actions={[{ label: 'Open', onSelect: () => {} }]}
        />
      ),
    },
  ];
  return <DataTable columns={rebuilt} query={query} paging={table} label="Things" />;
}

describe('the data-table kit', () => {
  it('shows skeleton rows, then the rows, the total and the page count', async () => {
    const requests = serveThings(45);
    renderThings();
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(10);
    expect(await screen.findByRole('cell', { name: 'Thing 1' })).toBeInTheDocument();
    expect(screen.queryByTestId('skeleton-row')).not.toBeInTheDocument();
    expect(screen.getByTestId('table-total')).toHaveTextContent('Total: 45');
    expect(screen.getByText('Page 1 of 5')).toBeInTheDocument();
    expect(lastQuery(requests)).toEqual({ page: '1', page_size: '10' });
    expect(screen.getByRole('button', { name: 'Go to the previous page' })).toBeDisabled();
  });

  it('moves between pages through the URL and asks the server for that page', async () => {
    const requests = serveThings(45);
    const { search } = renderThings();
    await screen.findByRole('cell', { name: 'Thing 1' });

    await userEvent.click(screen.getByRole('button', { name: 'Go to the next page' }));
    expect(await screen.findByRole('cell', { name: 'Thing 11' })).toBeInTheDocument();
    expect(search().get('page')).toBe('2');
    expect(lastQuery(requests)).toEqual({ page: '2', page_size: '10' });

    await userEvent.click(screen.getByRole('button', { name: 'Go to the last page' }));
    expect(await screen.findByRole('cell', { name: 'Thing 41' })).toBeInTheDocument();
    expect(search().get('page')).toBe('5');
    expect(screen.getByRole('button', { name: 'Go to the next page' })).toBeDisabled();
  });

  it('changes the page size in the URL and goes back to the first page', async () => {
    const requests = serveThings(45);
    const { search } = renderThings('/things?page=3');
    await screen.findByRole('cell', { name: 'Thing 21' });

    await userEvent.click(screen.getByRole('combobox', { name: 'Rows per page' }));
    await userEvent.click(await screen.findByRole('option', { name: '20' }));

    expect(await screen.findByRole('cell', { name: 'Thing 20' })).toBeInTheDocument();
    expect(search().get('page_size')).toBe('20');
    expect(search().has('page')).toBe(false);
    expect(lastQuery(requests)).toEqual({ page: '1', page_size: '20' });
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
  });

  it('sets single and repeated filters in the URL and the request, back on page 1', async () => {
    const requests = serveThings(45);
    const { search } = renderThings('/things?page=2');
    await screen.findByRole('cell', { name: 'Thing 11' });

    await userEvent.click(screen.getByRole('button', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('menuitemradio', { name: 'Inactive' }));
    await waitFor(() => expect(search().get('status')).toBe('inactive'));
    expect(search().has('page')).toBe(false);
    await waitFor(() =>
      expect(lastQuery(requests)).toEqual({ page: '1', page_size: '10', status: 'inactive' }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Kind' }));
    await userEvent.click(await screen.findByRole('menuitemcheckbox', { name: 'Fruit' }));
    await userEvent.click(screen.getByRole('menuitemcheckbox', { name: 'Toy' }));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(search().getAll('kind')).toEqual(['fruit', 'toy']));
    await waitFor(() => expect(requests.at(-1)?.getAll('kind')).toEqual(['fruit', 'toy']));
    expect(screen.getByRole('button', { name: /Kind/ })).toHaveTextContent('FruitToy');

    await userEvent.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(search().toString()).toBe(''));
    await waitFor(() => expect(lastQuery(requests)).toEqual({ page: '1', page_size: '10' }));
  });

  it('restores the whole view from a shared link', async () => {
    const requests = serveThings(45);
    renderThings(
      '/things?page=2&page_size=20&status=active&kind=tool&search=thing&sort=name&order=desc',
    );
    expect(await screen.findByRole('cell', { name: 'Thing 21' })).toBeInTheDocument();
    expect(lastQuery(requests)).toEqual({
      page: '2',
      page_size: '20',
      status: 'active',
      kind: 'tool',
      search: 'thing',
      sort: 'name',
      order: 'desc',
    });
    expect(screen.getByRole('searchbox', { name: 'Search things' })).toHaveValue('thing');
    expect(screen.getByRole('combobox', { name: 'Rows per page' })).toHaveTextContent('20');
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Status/ })).toHaveTextContent('Active');
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
  });

  it('drops empty and invalid filters before asking the server', async () => {
    const requests = serveThings(45);
    renderThings('/things?search=&status=&kind=&page_size=13&page=abc&sort=secret');
    await screen.findByRole('cell', { name: 'Thing 1' });
    expect(lastQuery(requests)).toEqual({ page: '1', page_size: '10' });
  });

  it('searches once typing pauses, and drops the search when the box is cleared', async () => {
    const requests = serveThings(45);
    const { search } = renderThings();
    await screen.findByRole('cell', { name: 'Thing 1' });
    const box = screen.getByRole('searchbox', { name: 'Search things' });

    await userEvent.type(box, 'apple');
    await waitFor(() => expect(search().get('search')).toBe('apple'));
    await waitFor(() => expect(lastQuery(requests)).toMatchObject({ search: 'apple' }));
    // One request for the whole word, not one per letter.
    expect(requests.filter((params) => params.has('search'))).toHaveLength(1);

    await userEvent.clear(box);
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(search().has('search')).toBe(false));
    await waitFor(() => expect(lastQuery(requests)).toEqual({ page: '1', page_size: '10' }));
  });

  it('sorts on the server: ascending, descending, then unsorted', async () => {
    const requests = serveThings(45);
    const { search } = renderThings('/things?page=2');
    await screen.findByRole('cell', { name: 'Thing 11' });
    const header = () => screen.getByRole('columnheader', { name: /Name/ });
    expect(header()).toHaveAttribute('aria-sort', 'none');

    await userEvent.click(within(header()).getByRole('button'));
    await waitFor(() => expect(search().get('order')).toBe('asc'));
    expect(search().get('sort')).toBe('name');
    expect(search().has('page')).toBe(false);
    await waitFor(() => expect(lastQuery(requests)).toMatchObject({ sort: 'name', order: 'asc' }));
    expect(header()).toHaveAttribute('aria-sort', 'ascending');

    await userEvent.click(within(header()).getByRole('button'));
    await waitFor(() => expect(search().get('order')).toBe('desc'));

    await userEvent.click(within(header()).getByRole('button'));
    await waitFor(() => expect(search().has('sort')).toBe(false));
    expect(search().has('order')).toBe(false);
  });

  it('says so when nothing matches', async () => {
    serveThings(0);
    renderThings('/things?status=inactive');
    expect(await screen.findByText('No results.')).toBeInTheDocument();
    expect(screen.getByTestId('table-total')).toHaveTextContent('Total: 0');
  });

  it('shows a failure by the display rule and loads again on retry', async () => {
    let calls = 0;
    server.use(
      http.get('/api/v1/things', () => {
        calls += 1;
        if (calls === 1) {
          return HttpResponse.json(
            {
              statusCode: 400,
              error: 'Bad Request',
              message: 'invalid',
              code: 'QUERY_PARAM_INVALID',
            },
            { status: 400 },
          );
        }
        return HttpResponse.json({ data: things(3), total: 3 });
      }),
    );
    renderThings();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The list could not be loaded.');
    expect(alert).toHaveTextContent('The query parameters are invalid.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('cell', { name: 'Thing 3' })).toBeInTheDocument();
  });

  it('exports what the filters show as CSV, without paging', async () => {
    serveThings(45);
    const exports: URLSearchParams[] = [];
    server.use(
      http.get('/api/v1/exports/employees', ({ request }) => {
        exports.push(new URL(request.url).searchParams);
        return new HttpResponse('id,name\n1,Thing 1\n', {
          headers: {
            'Content-Type': 'text/csv; charset=utf-8',
            'Content-Disposition': 'attachment; filename="things-2026-01-31.csv"',
          },
        });
      }),
    );
    const saveFile = vi.spyOn(browser, 'saveFile').mockImplementation(() => {});
    renderThings('/things?page=3&status=active&kind=toy');
    await screen.findByRole('cell', { name: 'Thing 21' });

    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1));
    expect(Object.fromEntries(exports[0]!.entries())).toEqual({ status: 'active', kind: 'toy' });
    const [blob, filename] = saveFile.mock.calls[0]!;
    expect(filename).toBe('things-2026-01-31.csv');
    expect(await (blob as Blob).text()).toBe('id,name\n1,Thing 1\n');
  });

  it('keeps the previous rows on screen while the next page loads', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get('/api/v1/things', async ({ request }) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        if (page === 2) await held;
        return HttpResponse.json({ data: things(10, (page - 1) * 10), total: 30 });
      }),
    );
    renderThings();
    await screen.findByRole('cell', { name: 'Thing 1' });
    await userEvent.click(screen.getByRole('button', { name: 'Go to the next page' }));
    expect(screen.getByRole('table', { name: 'Things' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.getByRole('cell', { name: 'Thing 1' })).toBeInTheDocument();
    act(() => release());
    expect(await screen.findByRole('cell', { name: 'Thing 11' })).toBeInTheDocument();
  });

  it('keeps an open row menu open when the columns are rebuilt', async () => {
    serveThings(3);
    const router = createMemoryRouter([{ path: '/things', element: <Rebuilding /> }], {
      initialEntries: ['/things'],
    });
    render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Thing 1' }));
    expect(await screen.findByRole('menuitem', { name: 'Open' })).toBeInTheDocument();
    act(() => rebuildColumns());
    expect(
      await screen.findByRole('columnheader', { name: 'Name 1', hidden: true }),
    ).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Open' })).toBeInTheDocument();
  });
});
