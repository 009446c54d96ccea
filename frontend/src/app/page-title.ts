import { BRAND_NAME } from '../components/copyright';

/** The browser tab text for a screen: "<Screen> · DataMarket", or just the brand for the landing page. */
export function pageTitle(title?: string): string {
  return title ? `${title} · ${BRAND_NAME}` : `${BRAND_NAME} · Data marketplace and data platform`;
}
