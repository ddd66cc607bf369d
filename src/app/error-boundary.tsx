import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Translation } from 'react-i18next';

interface State {
  failed: boolean;
}

/** Catches a rendering error anywhere below and offers a way out instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Rendering failed', error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Translation>
        {(t) => (
          <div className="page empty-state" role="alert">
            <h1>{t('error.title')}</h1>
            <p>{t('error.text')}</p>
            <div className="hero__actions">
              <button type="button" className="button" onClick={() => window.location.reload()}>
                {t('error.refresh')}
              </button>
              <a className="button button--ghost" href="/">
                {t('error.home')}
              </a>
            </div>
          </div>
        )}
      </Translation>
    );
  }
}
