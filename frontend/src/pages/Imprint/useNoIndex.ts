import { useEffect } from 'react';

/**
 * <meta name="robots" content="noindex"> while the calling screen is shown. The server already
 * writes it into the page it sends for the imprint; arriving from another screen, the app adds it.
 * Leaving takes it away either way: the next screen is to be indexed.
 */
export function useNoIndex(): void {
  useEffect(() => {
    const meta =
      document.head.querySelector<HTMLMetaElement>('meta[name="robots"]') ??
      document.head.appendChild(Object.assign(document.createElement('meta'), { name: 'robots' }));
    meta.content = 'noindex';
    return () => meta.remove();
  }, []);
}
