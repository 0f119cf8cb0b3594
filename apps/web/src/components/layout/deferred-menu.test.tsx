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

function Trigger({ label, ...props }: Props & { onClick?: () => void }) {
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
  return {
    Deferred: deferMenu<Props>(() => loaded, Trigger),
    arrive: () => act(async () => arrive()),
  };
}

describe('a deferred menu', () => {
  it('shows its button at once and opens once its code arrives', async () => {
    const { Deferred, arrive } = deferredMenu();
    render(<Deferred label="Language" />);
    expect(screen.getByRole('button', { name: 'Language' })).not.toHaveAttribute('aria-haspopup');

    await arrive();
    const button = screen.getByRole('button', { name: 'Language' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    await userEvent.click(button);
    expect(await screen.findByRole('menu')).toBeInTheDocument();
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
