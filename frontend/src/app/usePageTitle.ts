import { useEffect, useLayoutEffect } from 'react';
import { pageTitle } from './page-title';

/** Pages with their own title (e.g. a blog post) call this once their data is there. */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    if (title) document.title = pageTitle(title);
  }, [title]);
}

/** The route's default title. A layout effect, so that a page's own usePageTitle (a passive effect) wins. */
export function useRouteTitle(title: string | undefined): void {
  useLayoutEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
}
