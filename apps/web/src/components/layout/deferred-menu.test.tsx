import type { ComponentType } from 'react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import {
  deferMenu,
  holdDeferredMenus,
  releaseDeferredMenus,
  type DeferredMenuProps,
  type DeferredTriggerProps,
} from './deferred-menu';

interface Props {
  label: string;
}

function Trigger({ label, ...props }: Props & DeferredTriggerProps) {
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

/** Suspends while `pending` is set: a menu waiting for something of its own (a catalogue). */
const catalogue = { pending: null as Promise<void> | null };
function Catalogue() {
  if (catalogue.pending) throw catalogue.pending;
  return null;
}
function WaitingMenu({ trigger, defaultOpen }: Props & DeferredMenuProps) {
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <Catalogue />
      <DropdownMenuContent>
        <DropdownMenuItem>First</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

describe('a deferred menu', () => {
  // The menu mounted, then hidden behind its placeholder while it waits again: a press on the
  // placeholder opens it once it is back (it was lost: the mounted menu read defaultOpen once).
  it('opens for a press on the placeholder shown while the arrived menu waits', async () => {
    const Deferred = deferMenu<Props>(() => Promise.resolve(WaitingMenu), Trigger);
    const { rerender } = render(<Deferred label="Language" />);
    await act(async () => undefined);
    expect(screen.getByRole('button', { name: 'Language' })).toHaveAttribute('aria-haspopup');
    let done!: () => void;
    catalogue.pending = new Promise<void>((resolve) => {
      done = () => {
        catalogue.pending = null;
        resolve();
      };
    });
    rerender(<Deferred label="Language." />);
    const placeholder = screen.getByRole('button', { name: 'Language.' });
    expect(placeholder).not.toHaveAttribute('aria-haspopup');
    fireEvent.click(placeholder);
    await act(async () => done());
    expect(await screen.findByRole('menuitem', { name: 'First' })).toBeInTheDocument();
  });

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

  // The race seen in two-factor.spec under load: Playwright's press is a pointerdown and a
  // pointerup, and the menu's code may arrive between the two.
  it('keeps a press that went down on the placeholder and came up on the arrived button', async () => {
    const { Deferred, arrive } = deferredMenu();
    render(<Deferred label="Language" />);
    fireEvent.pointerDown(screen.getByRole('button', { name: 'Language' }), { button: 0 });
    await arrive();
    const button = screen.getByRole('button', { name: 'Language' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    fireEvent.pointerUp(button, { button: 0 });
    expect(await screen.findByRole('menuitem', { name: 'First' })).toBeInTheDocument();
  });

  it('keeps a key pressed on the placeholder as the code arrives', async () => {
    const { Deferred, arrive } = deferredMenu();
    render(<Deferred label="Language" />);
    const placeholder = screen.getByRole('button', { name: 'Language' });
    placeholder.focus();
    fireEvent.keyDown(placeholder, { key: 'ArrowDown' });
    await arrive();
    expect(await screen.findByRole('menuitem', { name: 'First' })).toBeInTheDocument();
  });

  it('hands the focus from the placeholder to the arrived button', async () => {
    const { Deferred, arrive } = deferredMenu();
    render(<Deferred label="Language" />);
    screen.getByRole('button', { name: 'Language' }).focus();
    await arrive();
    const button = screen.getByRole('button', { name: 'Language' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveFocus();
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
  });

  it('leaves the focus alone when the placeholder did not have it', async () => {
    const { Deferred, arrive } = deferredMenu();
    render(
      <>
        <input aria-label="Search" />
        <Deferred label="Language" />
      </>,
    );
    screen.getByRole('textbox', { name: 'Search' }).focus();
    await arrive();
    expect(screen.getByRole('textbox', { name: 'Search' })).toHaveFocus();
  });

  // Runs last in this file: the hold is the app's first page's only (one per module instance).
  it('waits while held, fetches once released, and a press releases it at once', async () => {
    holdDeferredMenus(60_000);
    const load = vi.fn(() => Promise.resolve(Menu));
    const Held = deferMenu<Props>(load, Trigger);
    render(<Held label="Account" />);
    await act(async () => new Promise((resolve) => setTimeout(resolve, 30)));
    expect(load).not.toHaveBeenCalled();

    // A press on the button lets the code come and opens the menu.
    await userEvent.click(screen.getByRole('button', { name: 'Account' }));
    expect(await screen.findByRole('menu')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);

    // Released, a later hold holds nothing.
    releaseDeferredMenus();
    holdDeferredMenus(60_000);
    const later = vi.fn(() => Promise.resolve(Menu));
    const Later = deferMenu<Props>(later, Trigger);
    render(<Later label="Language" />);
    await act(async () => new Promise((resolve) => setTimeout(resolve, 30)));
    expect(later).toHaveBeenCalledTimes(1);
  });
});
