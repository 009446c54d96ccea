import { BRAND_NAME } from '../components/copyright';

/** The browser tab text for a screen: "<Screen> · Data Marketplace"; the landing page has the brand and what it offers. */
export function pageTitle(title?: string): string {
  return title ? `${title} · ${BRAND_NAME}` : `${BRAND_NAME} · Datasets and API connectors`;
}
