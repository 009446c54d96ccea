export const APP_CATEGORIES = ['All', 'Finance', 'Marketing', 'Science', 'Technology'] as const;
export type AppCategory = (typeof APP_CATEGORIES)[number];

export interface DataApp {
  id: string;
  title: string;
  description: string;
  category: Exclude<AppCategory, 'All'>;
  /** Shown as is: €29, €19, Free, €39. */
  price: string;
  image: string;
}

/** The static demo list of /dataapps: four sample apps, no real behaviour behind them. */
export const DATA_APPS: DataApp[] = [
  {
    id: 'portfolio-insights',
    title: 'Portfolio Insights',
    description: 'Track stock and ETF performance, risk and dividends from market data in one dashboard.',
    category: 'Finance',
    price: '€29',
    image: '/images/apps/finance.svg',
  },
  {
    id: 'campaign-analyzer',
    title: 'Campaign Analyzer',
    description:
      'Compare ad spend, reach and conversions across channels to find the campaigns that pay off.',
    category: 'Marketing',
    price: '€19',
    image: '/images/apps/marketing.svg',
  },
  {
    id: 'climate-explorer',
    title: 'Climate Explorer',
    description: 'Explore open temperature, rainfall and CO₂ series on maps and charts, ready for research.',
    category: 'Science',
    price: 'Free',
    image: '/images/apps/science.svg',
  },
  {
    id: 'api-monitor',
    title: 'API Monitor',
    description:
      'Watch response times, error rates and usage of your connected APIs with alerts on anomalies.',
    category: 'Technology',
    price: '€39',
    image: '/images/apps/technology.svg',
  },
];

/** Apps matching the category ('All' for every one) and the search text (title or description, any case). */
export function filterApps(apps: DataApp[], search: string, category: AppCategory): DataApp[] {
  const needle = search.trim().toLowerCase();
  return apps.filter(
    (app) =>
      (category === 'All' || app.category === category) &&
      (!needle || app.title.toLowerCase().includes(needle) || app.description.toLowerCase().includes(needle)),
  );
}
