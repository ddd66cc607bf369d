import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Translation } from 'react-i18next';
import { replayHeldClicks } from '../lib/clicks-before-hydration';

interface State {
  failed: boolean;
  /** The page's code could not be downloaded (dropped connection, or a newer version). */
  chunk: boolean;
}

/** What browsers say when a lazily loaded part of the app cannot be fetched. */
const CHUNK_FAILURE =
  /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Loading chunk/i;

export const isChunkLoadError = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'ChunkLoadError' || CHUNK_FAILURE.test(error.message));

/** Catches a rendering error anywhere below and offers a way out instead of a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false, chunk: false };

  static getDerivedStateFromError(error: unknown): State {
    return { failed: true, chunk: isChunkLoadError(error) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Rendering failed', error, info.componentStack);
    // A screen that failed is hydrated all the same: clicks are no longer held back.
    replayHeldClicks();
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    const prefix = this.state.chunk ? 'error.chunk' : 'error';
    return (
      <Translation>
        {(t) => (
          <div className="page empty-state" role="alert">
            <h1>{t(`${prefix}.title`)}</h1>
            <p>{t(`${prefix}.text`)}</p>
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
