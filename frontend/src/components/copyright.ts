export const BRAND_NAME = 'Data Marketplace';

/** The footer's copyright line for the given year (the current one by default). */
export function copyrightLine(year: number = new Date().getFullYear()): string {
  return `© ${year} ${BRAND_NAME}. All rights reserved.`;
}
