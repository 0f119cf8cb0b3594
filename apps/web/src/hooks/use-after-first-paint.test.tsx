import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAfterFirstPaint } from './use-after-first-paint';

function Probe() {
  const isPainted = useAfterFirstPaint();
  return <p data-testid="probe">{isPainted ? 'after' : 'first'}</p>;
}

describe('useAfterFirstPaint', () => {
  it('is false in the first render and turns true after the next frame', async () => {
    render(<Probe />);
    expect(screen.getByTestId('probe')).toHaveTextContent('first');
    expect(await screen.findByText('after')).toBeInTheDocument();
  });

  it('does nothing once the component is gone', async () => {
    const { unmount } = render(<Probe />);
    unmount();
    // No update on an unmounted component (React would warn through console.error, which fails).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('probe')).toBeNull();
  });
});
