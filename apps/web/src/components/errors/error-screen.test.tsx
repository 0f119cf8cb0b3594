import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '@/lib/browser';
import { CHUNK_LOAD_COUNTER_KEY } from '@/lib/chunk-load';
import { ErrorBoundary } from './error-boundary';

const chunkError = () =>
  new TypeError('Failed to fetch dynamically imported module: /assets/merchants-abc.js');

function Thrower({ error }: { error: unknown }): never {
  throw error;
}

const renderBoundaryWith = (error: unknown) =>
  render(
    <ErrorBoundary>
      <Thrower error={error} />
    </ErrorBoundary>,
  );

describe('the error boundary', () => {
  it('shows Oops! with the generic message and a Reload page button that resets and reloads', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});
    renderBoundaryWith(new Error('render failed'));

    expect(screen.getByRole('heading', { name: 'Oops!' })).toBeInTheDocument();
    expect(
      screen.getByText('An error has occurred, please refresh and try again.'),
    ).toBeInTheDocument();
    expect(reload).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Reload page' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

describe('the chunk-load rule', () => {
  it('reloads once by itself when the counter is absent, and sets it to 1', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});
    renderBoundaryWith(chunkError());

    expect(reload).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(CHUNK_LOAD_COUNTER_KEY)).toBe('1');
    expect(
      screen.getByText(
        'This application has been updated, please refresh your browser to see the latest content.',
      ),
    ).toBeInTheDocument();
  });

  it('reloads by itself when the counter is 0', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});
    localStorage.setItem(CHUNK_LOAD_COUNTER_KEY, '0');
    renderBoundaryWith(chunkError());
    expect(reload).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(CHUNK_LOAD_COUNTER_KEY)).toBe('1');
  });

  it('does not reload by itself again once the counter is 1', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});
    localStorage.setItem(CHUNK_LOAD_COUNTER_KEY, '1');
    renderBoundaryWith(chunkError());

    expect(reload).not.toHaveBeenCalled();
    expect(localStorage.getItem(CHUNK_LOAD_COUNTER_KEY)).toBe('1');
    expect(
      screen.getByText(
        'This application has been updated, please refresh your browser to see the latest content.',
      ),
    ).toBeInTheDocument();
  });

  it('does not reload for an ordinary error', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});
    renderBoundaryWith(new Error('render failed'));
    expect(reload).not.toHaveBeenCalled();
    expect(localStorage.getItem(CHUNK_LOAD_COUNTER_KEY)).toBeNull();
  });
});
