import { useSearchParams, type NavigateOptions } from 'react-router-dom';

type QueryChange = (current: URLSearchParams) => URLSearchParams;

/**
 * The address's query, and a change to it that starts from the address as it is now.
 * React Router's own updater starts from the query last rendered
 * (remix-run/react-router#9757), and the render after a change is a transition that a busy
 * phone puts off: a second filter chosen before that render undid the first. The browser's
 * history changes at once, so the change reads it.
 */
export function useUrlQuery(): [
  URLSearchParams,
  (change: QueryChange, options?: NavigateOptions) => void,
] {
  const [params, setParams] = useSearchParams();
  const update = (change: QueryChange, options?: NavigateOptions) =>
    setParams(() => change(new URLSearchParams(window.location.search)), options);
  return [params, update];
}
