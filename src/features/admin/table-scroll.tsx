import type { ReactNode } from 'react';

/**
 * A table that scrolls sideways when it is wider than the screen (a phone): named by its
 * caption or heading, and focusable, so that it can be scrolled from the keyboard too.
 */
export function TableScroll({ labelledBy, children }: { labelledBy: string; children: ReactNode }) {
  return (
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region must be reachable (WCAG 2.1.1)
    <div className="table-scroll" role="region" aria-labelledby={labelledBy} tabIndex={0}>
      {children}
    </div>
  );
}
