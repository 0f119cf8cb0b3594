import { Component, type ErrorInfo, type ReactNode } from 'react';
import { browser } from '@/lib/browser';
import { ErrorScreen } from './error-screen';

interface State {
  error: unknown;
  hasError: boolean;
}

/** Catches render errors outside the router and shows the Oops! screen. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null, hasError: false };

  static getDerivedStateFromError(error: unknown): State {
    return { error, hasError: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  private readonly reload = (): void => {
    this.setState({ error: null, hasError: false });
    browser.reload();
  };

  override render(): ReactNode {
    if (this.state.hasError) return <ErrorScreen error={this.state.error} onReload={this.reload} />;
    return this.props.children;
  }
}
