import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from './tooltip';

function renderTooltips() {
  render(
    <TooltipProvider>
      <Tooltip>
        <TooltipTrigger>first</TooltipTrigger>
        <TooltipContent>First tip</TooltipContent>
      </Tooltip>
      <Tooltip>
        <TooltipTrigger>second</TooltipTrigger>
        <TooltipContent>Second tip</TooltipContent>
      </Tooltip>
    </TooltipProvider>,
  );
}

const hover = (name: string) =>
  fireEvent.pointerMove(screen.getByRole('button', { name }), { pointerType: 'mouse' });
/** Leaves the trigger and moves well away from it (out of Radix's hover grace area). */
const leave = (name: string) => {
  fireEvent.pointerLeave(screen.getByRole('button', { name }), { pointerType: 'mouse' });
  fireEvent.pointerMove(document, { pointerType: 'mouse', clientX: 900, clientY: 900 });
};

describe('tooltips', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('open after 700 ms of hovering', () => {
    renderTooltips();
    hover('first');
    act(() => vi.advanceTimersByTime(699));
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('tooltip')).toHaveTextContent('First tip');
  });

  it('open at once when moving to another trigger within 300 ms', () => {
    renderTooltips();
    hover('first');
    act(() => vi.advanceTimersByTime(700));
    leave('first');
    act(() => vi.advanceTimersByTime(299));
    hover('second');
    expect(screen.getByRole('tooltip')).toHaveTextContent('Second tip');
  });

  it('wait again after the 300 ms skip window', () => {
    renderTooltips();
    hover('first');
    act(() => vi.advanceTimersByTime(700));
    leave('first');
    act(() => vi.advanceTimersByTime(301));
    hover('second');
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
  });
});
