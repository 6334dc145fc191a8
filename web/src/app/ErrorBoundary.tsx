// A rendering error must not leave a blank page: say what happened and offer a way back.
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

/** Catches errors thrown while rendering its children. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // Kept in the console for a bug report.
    console.error('cwndlab failed to render', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <main className="fatal" role="alert">
        <h1>Something went wrong</h1>
        <p>The page could not be drawn: {this.state.error.message}</p>
        <p>
          <a href="./">Open the default scenario</a> or reload the page. If a link caused this, please report it with
          the link.
        </p>
      </main>
    );
  }
}
