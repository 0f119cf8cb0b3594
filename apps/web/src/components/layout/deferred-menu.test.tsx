import type { ComponentType } from 'react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { deferMenu, type DeferredMenuProps } from './deferred-menu';

interface Props {
  label: string;
}

function Trigger({
  label,
  ...props
}: Props & { onClick?: () => void; onPointerEnter?: () => void; onPointerDown?: () => void }) {
  return (
    <button type="button" {...props}>
      {label}
    </button>
  );
}

function Menu({ trigger, defaultOpen }: Props & DeferredMenuProps) {
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuItem>First</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** A deferred menu whose code arrives when the test says so. */
function deferredMenu() {
  let arrive!: () => void;
  const loaded = new Promise<ComponentType<Props & DeferredMenuProps>>((resolve) => {
    arrive = () => resolve(Menu);
  });
  let calls = 0;
  return {
    Deferred: deferMenu<Props>(() => {
      calls += 1;
      return loaded;
    }, Trigger),
    arrive: () => act(async () => arrive()),
    asked: () => calls,
  };
}

describe('a deferred menu', () => {
  it('shows its button at once, fetches its code when the pointer comes, and opens', async () => {
    const { Deferred, arrive, asked } = deferredMenu();
    render(<Deferred label="Language" />);
    expect(screen.getByRole('button', { name: 'Language' })).not.toHaveAttribute('aria-haspopup');
    // Nothing is fetched while the button is merely on screen (decision 0033).
    await act(async () => undefined);
    expect(asked()).toBe(0);

    await userEvent.hover(screen.getByRole('button', { name: 'Language' }));
    expect(asked()).toBe(1);
    await arrive();
    await userEvent.click(screen.getByRole('button', { name: 'Language' }));
    expect(await screen.findByRole('menu')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Language' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(asked()).toBe(1);
  });

  it('keeps a click made before its code arrives and opens then', async () => {
    const { Deferred, arrive } = deferredMenu();
    render(<Deferred label="Language" />);
    await userEvent.click(screen.getByRole('button', { name: 'Language' }));
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();

    await arrive();
    expect(await screen.findByRole('menuitem', { name: 'First' })).toBeInTheDocument();
  });
});
