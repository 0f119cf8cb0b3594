import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { transport } from '@/lib/transport';
import { useAuthStore } from '@/lib/auth-store';
import { queryClient } from '@/lib/query-client';
import { buildUser } from '@/test/fixtures';
import { server } from '@/test/server';
import { columnPreferencesKey } from './column-preferences';
import { DataTable, defineTableSearch, type ListResult, textFilter, useTableSearch } from './index';

/** Issue 19: sortable text headers, the column picker, rows that open a page, phone cards. */

interface Shop {
  id: number;
  code: string;
  name: string;
  city: string;
}

const shopsSearch = defineTableSearch({
  filters: { search: textFilter() },
  sortable: ['code', 'name'] as const,
});

const columns: ColumnDef<Shop>[] = [
  { accessorKey: 'code', header: 'Code' },
  { accessorKey: 'name', header: 'Name', meta: { mobile: 'title' } },
  { accessorKey: 'city', header: 'City' },
  {
    id: 'actions',
    header: () => <span className="sr-only">Actions</span>,
    meta: { pinned: 'right' },
    cell: ({ row }) => <button type="button">Menu of {row.original.name}</button>,
  },
];

const SHOPS: Shop[] = [
  { id: 1, code: 'B1', name: 'Bakery', city: 'Lyon' },
  { id: 2, code: 'A1', name: 'Noodles', city: 'Paris' },
];

function Shops() {
  const table = useTableSearch(shopsSearch);
  const query = useQuery({
    queryKey: ['shops', table.query],
    queryFn: async () =>
      (await transport.get<ListResult<Shop>>('/api/v1/shops', { params: table.query })).data,
  });
  return (
    <DataTable
      columns={columns}
      query={query}
      paging={table}
      label="Shops"
      tableId="shops"
      sortable={table.config.sortable}
      rowHref={(shop) => `/shops/${shop.id}`}
    />
  );
}

function renderShops(path = '/shops') {
  const requests: URLSearchParams[] = [];
  server.use(
    http.get('/api/v1/shops', ({ request }) => {
      const params = new URL(request.url).searchParams;
      requests.push(params);
      const rows = params.get('order') === 'desc' ? [...SHOPS].reverse() : SHOPS;
      return HttpResponse.json({ data: rows, total: rows.length });
    }),
  );
  const router = createMemoryRouter(
    [
      { path: '/shops', element: <Shops /> },
      { path: '/shops/:id', element: <h1>Shop page</h1> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { router, requests };
}

const signInAs = (userId: number) =>
  useAuthStore.setState({ user: buildUser('admin', { user_id: userId }), isAuthenticated: true });

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the data-table kit, as Stripe and Linear lay tables out', () => {
  it('turns the text headers of sortable columns into sort buttons, with aria-sort, on the server', async () => {
    signInAs(1);
    const { router, requests } = renderShops();
    await screen.findByRole('cell', { name: 'Bakery' });
    const name = screen.getByRole('columnheader', { name: /^Name/ });
    expect(name).toHaveAttribute('aria-sort', 'none');
    // A column the API does not sort by stays plain text.
    expect(screen.getByRole('columnheader', { name: 'City' })).not.toHaveAttribute('aria-sort');
    expect(
      within(screen.getByRole('columnheader', { name: 'City' })).queryByRole('button'),
    ).toBeNull();

    await userEvent.click(within(name).getByRole('button'));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=name&order=asc'));
    await userEvent.click(within(name).getByRole('button'));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=name&order=desc'));
    await waitFor(() => expect(requests.at(-1)?.get('order')).toBe('desc'));
    expect(screen.getByRole('columnheader', { name: /^Name/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    const rows = screen.getAllByRole('row').slice(1);
    await waitFor(() => expect(rows[0]).toHaveTextContent('Noodles'));
  });

  it('hides a column from the picker, remembers it for that user only', async () => {
    signInAs(7);
    renderShops();
    await screen.findByRole('cell', { name: 'Bakery' });
    await userEvent.click(screen.getByRole('button', { name: 'Columns' }));
    await userEvent.click(await screen.findByRole('menuitemcheckbox', { name: 'City' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('columnheader', { name: 'City' })).toBeNull();
    expect(JSON.parse(localStorage.getItem(columnPreferencesKey(7, 'shops'))!)).toEqual(['city']);

    // Another person on this browser has every column.
    signInAs(8);
    await waitFor(() => expect(screen.getByRole('columnheader', { name: 'City' })).toBeVisible());
    // And the first finds the choice again.
    signInAs(7);
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: 'City' })).toBeNull());
  });

  it('opens a row’s page on a click on the row, not on its controls, and pins the actions', async () => {
    signInAs(1);
    const { router } = renderShops();
    const cell = await screen.findByRole('cell', { name: 'Lyon' });
    await userEvent.click(screen.getByRole('button', { name: 'Menu of Bakery' }));
    expect(router.state.location.pathname).toBe('/shops');
    expect(screen.getByRole('button', { name: 'Menu of Bakery' }).closest('td')).toHaveClass(
      'sticky',
    );
    await userEvent.click(cell);
    await waitFor(() => expect(router.state.location.pathname).toBe('/shops/1'));
  });

  it('stacks the rows as cards below 768 px, titled, each field labelled', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 767px)',
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    signInAs(1);
    const { router } = renderShops();
    const cards = await screen.findByRole('list', { name: 'Shops' });
    expect(screen.queryByRole('table')).toBeNull();
    const first = within(cards).getAllByRole('listitem')[0]!;
    expect(first.firstElementChild).toHaveTextContent('Bakery');
    expect(within(first).getByText('City').nextElementSibling).toHaveTextContent('Lyon');
    await userEvent.click(within(first).getByText('Lyon'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/shops/1'));
  });

  it('sorts the cards with a labelled control, column and direction, in the URL as the headers do', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 767px)',
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    signInAs(1);
    const { router, requests } = renderShops('/shops?sort=code&order=asc');
    await screen.findByRole('list', { name: 'Shops' });
    // This list shows no previous page while the next loads: find the control afresh each time.
    const column = () => screen.getByRole('combobox', { name: 'Sort by column' });
    const order = () => screen.getByRole('combobox', { name: 'Sort order' });
    expect(screen.getByRole('group', { name: 'Sort by' })).toContainElement(column());
    expect(screen.getByRole('group', { name: 'Sort by' })).toContainElement(order());
    // It reads the sort in the URL.
    expect(column()).toHaveTextContent('Code');
    expect(order()).toHaveTextContent('Ascending');

    // By keyboard: the column list offers the sortable columns only, and the list's own order.
    column().focus();
    await userEvent.keyboard('{Enter}');
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Default order', 'Code', 'Name']);
    await userEvent.keyboard('{ArrowDown}{Enter}');
    await waitFor(() => expect(router.state.location.search).toBe('?sort=name&order=asc'));
    await waitFor(() => expect(requests.at(-1)?.get('sort')).toBe('name'));

    await screen.findByRole('list', { name: 'Shops' });
    await userEvent.click(order());
    await userEvent.click(await screen.findByRole('option', { name: 'Descending' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=name&order=desc'));
    const cards = screen.getByRole('list', { name: 'Shops' });
    await waitFor(() =>
      expect(within(cards).getAllByRole('listitem')[0]).toHaveTextContent('Noodles'),
    );

    // Back to the list's own order: no sort in the URL, and no direction to choose.
    await userEvent.click(column());
    await userEvent.click(await screen.findByRole('option', { name: 'Default order' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await screen.findByRole('list', { name: 'Shops' });
    expect(order()).toBeDisabled();
  });

  it('has no sort control on cards of a list that does not sort', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(max-width: 767px)',
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    function Unsorted() {
      const table = useTableSearch(shopsSearch);
      return (
        <DataTable
          columns={columns}
          query={{
            data: { data: SHOPS, total: 2 },
            isPending: false,
            isError: false,
            error: null,
            isFetching: false,
            refetch: () => {},
          }}
          paging={table}
          label="Shops"
        />
      );
    }
    const router = createMemoryRouter([{ path: '/', element: <Unsorted /> }]);
    render(
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await screen.findByRole('list', { name: 'Shops' });
    expect(screen.queryByRole('group', { name: 'Sort by' })).toBeNull();
  });
});
