import { render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { useLateQuery } from './late-query';
import { queryClient } from './query-client';
import { clearQueryCache, seedQueries, useQueriesFetching } from './query-client-registry';

function Probe({ queryFn }: { queryFn: () => Promise<string> }) {
  const { data, isPending } = useLateQuery({ queryKey: ['probe', { b: 1, a: 2 }], queryFn });
  return <p>{isPending ? 'pending' : data}</p>;
}

afterEach(() => clearQueryCache());

describe('a late query (decision 0060)', () => {
  it('draws the answer the page was drawn with before TanStack Query, as the server does', () => {
    const never = () => new Promise<string>(() => undefined);
    expect(renderToString(<Probe queryFn={never} />)).toContain('pending');
    // The same key with its object's keys in another order: TanStack Query's hash.
    seedQueries([{ queryKey: ['probe', { a: 2, b: 1 }], data: 'drawn' }]);
    expect(renderToString(<Probe queryFn={never} />)).toContain('drawn');
    // The client, once there, starts with it.
    expect(queryClient.getQueryData(['probe', { a: 2, b: 1 }])).toBe('drawn');
  });

  it("is TanStack Query's own query once the library has loaded", async () => {
    render(<Probe queryFn={() => Promise.resolve('fetched')} />);
    expect(await screen.findByText('fetched')).toBeInTheDocument();
    expect(queryClient.getQueryData(['probe', { a: 2, b: 1 }])).toBe('fetched');
  });

  it('counts as fetching for the navigation bar while it fetches', async () => {
    let answer: (value: string) => void = () => undefined;
    const pending = () => new Promise<string>((resolve) => (answer = resolve));
    function Bar() {
      return <span data-testid="fetching">{useQueriesFetching()}</span>;
    }
    render(
      <>
        <Probe queryFn={pending} />
        <Bar />
      </>,
    );
    await expect.poll(() => screen.getByTestId('fetching').textContent).toBe('1');
    answer('done');
    expect(await screen.findByText('done')).toBeInTheDocument();
    await expect.poll(() => screen.getByTestId('fetching').textContent).toBe('0');
  });
});
