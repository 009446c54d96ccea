import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { Injectable } from '@nestjs/common';
import { AssetsService } from '../../assets/assets.service';
import { PROJECT_ROOT } from '../../common/paths';
import type { SeedContext } from './seed-context';

/** The CSV files ship as source files (the build compiles only .ts), so they are read from the repository. */
export const SEED_DATASETS_DIR = join(PROJECT_ROOT, 'src', 'database', 'seed', 'datasets');

const SOURCE = 'Data Marketplace demo data (synthetic)';
const AUTHOR = 'Data Marketplace Team';

interface SeedDataset {
  file: string;
  title: string;
  description: string;
  category: string;
  keywords: string[];
  price: string;
  isPublic: boolean;
  /** An SPDX licence id from src/common/licences.ts. */
  licence: string;
}

export const SEED_DATASETS: SeedDataset[] = [
  {
    file: 'global-stock-prices-2024.csv',
    title: 'Global Stock Prices 2024',
    description:
      'Daily open, high, low, close and volume for five listed companies over 40 trading days in spring 2024.',
    category: 'Finance',
    keywords: ['stocks', 'prices', 'trading', 'daily'],
    price: '19.99',
    isPublic: true,
    licence: 'CC-BY-4.0',
  },
  {
    file: 'startup-funding-rounds.csv',
    title: 'Startup Funding Rounds 2022-2024',
    description:
      'Seed to Series C rounds with amount, sector, lead investor and country, for venture and market analysis.',
    category: 'Finance',
    keywords: ['venture capital', 'startups', 'funding'],
    price: '29.00',
    isPublic: true,
    licence: 'CC-BY-SA-4.0',
  },
  {
    file: 'marketing-campaign-performance.csv',
    title: 'Marketing Campaign Performance',
    description:
      'Monthly impressions, clicks, conversions and spend per campaign and channel, with click-through rates.',
    category: 'Marketing',
    keywords: ['campaigns', 'ctr', 'advertising', 'channels'],
    price: '0',
    isPublic: true,
    licence: 'CC-BY-4.0',
  },
  {
    file: 'ecommerce-orders-sample.csv',
    title: 'E-commerce Orders Sample',
    description:
      'A quarter of online-shop orders: products, quantities, totals, countries, returning customers and delivery notes.',
    category: 'Marketing',
    keywords: ['retail', 'orders', 'customers'],
    price: '4.99',
    isPublic: true,
    licence: 'CC0-1.0',
  },
  {
    file: 'exoplanet-discoveries.csv',
    title: 'Exoplanet Discoveries',
    description:
      'Confirmed-style exoplanet records: host star, discovery year and method, orbital period, radius, mass and distance.',
    category: 'Science',
    keywords: ['astronomy', 'exoplanets', 'space'],
    price: '0',
    isPublic: true,
    licence: 'CC0-1.0',
  },
  {
    file: 'european-electricity-mix.csv',
    title: 'European Electricity Generation Mix',
    description:
      'Quarterly shares of wind, solar, hydro, nuclear, gas and coal in eight European countries, with carbon intensity.',
    category: 'Science',
    keywords: ['energy', 'renewables', 'emissions', 'europe'],
    price: '14.00',
    isPublic: true,
    licence: 'CC-BY-4.0',
  },
  {
    file: 'cloud-instance-pricing.csv',
    title: 'Cloud Instance Pricing',
    description:
      'Hourly on-demand prices of general, compute, memory and GPU instance types across providers and regions.',
    category: 'Technology',
    keywords: ['cloud', 'pricing', 'infrastructure'],
    price: '9.50',
    isPublic: true,
    licence: 'ODC-By-1.0',
  },
  {
    file: 'developer-survey-languages.csv',
    title: 'Developer Survey: Programming Languages',
    description:
      'Yearly usage and admiration of twelve programming languages with median salaries, 2020-2024.',
    category: 'Technology',
    keywords: ['developers', 'survey', 'languages', 'salaries'],
    price: '0',
    isPublic: true,
    licence: 'ODbL-1.0',
  },
  {
    file: 'hospital-emergency-wait-times.csv',
    title: 'Hospital Emergency Wait Times',
    description:
      'Daily average emergency-room wait, patients seen and admission rate for five hospitals in January 2024.',
    category: 'Health',
    keywords: ['healthcare', 'hospitals', 'emergency'],
    price: '0',
    isPublic: true,
    licence: 'OGL-UK-3.0',
  },
  {
    file: 'clinical-trial-enrolment.csv',
    title: 'Clinical Trial Enrolment Tracker',
    description:
      'Internal tracker of trial phases, sites and enrolment against target. Private: visible to its owner only.',
    category: 'Health',
    keywords: ['clinical trials', 'enrolment'],
    price: '0',
    isPublic: false,
    licence: 'CC-BY-4.0',
  },
  {
    file: 'city-budget-expenditures.csv',
    title: 'City Budget vs. Actual Expenditures',
    description:
      'Budgeted and actual spending per department and category of a mid-sized city, fiscal years 2019-2024.',
    category: 'Government',
    keywords: ['budget', 'public spending', 'open data'],
    price: '0',
    isPublic: true,
    licence: 'PDDL-1.0',
  },
  {
    file: 'public-transit-ridership.csv',
    title: 'Public Transit Ridership 2023',
    description:
      'Monthly weekday and weekend ridership and on-time performance per subway, bus, ferry and rail line.',
    category: 'Government',
    keywords: ['transport', 'ridership', 'mobility'],
    price: '0',
    isPublic: true,
    licence: 'ODbL-1.0',
  },
  {
    file: 'air-quality-measurements.csv',
    title: 'Urban Air Quality Measurements',
    description:
      'PM2.5, PM10, NO2 and ozone readings every three hours from four city monitoring stations in May 2024.',
    category: 'Science',
    keywords: ['air quality', 'pollution', 'environment', 'sensors'],
    price: '2.00',
    isPublic: true,
    licence: 'CC-BY-4.0',
  },
];

/**
 * Demo datasets owned by the demo user, loaded through the real ingest (streamed CSV into typed
 * tables). Idempotent: a title the demo user already has is skipped.
 */
@Injectable()
export class DatasetsSeeder {
  constructor(private readonly assets: AssetsService) {}

  /** Answers how many datasets this run added. */
  async run(context: SeedContext): Promise<number> {
    let created = 0;
    for (const dataset of SEED_DATASETS) {
      if (await this.assets.ownerHasTitle(context.demoUserId, dataset.title)) continue;
      await this.assets.ingestCsv(
        {
          ownerId: context.demoUserId,
          title: dataset.title,
          description: dataset.description,
          category: dataset.category,
          keywords: dataset.keywords,
          price: dataset.price,
          isPublic: dataset.isPublic,
          source: SOURCE,
          author: AUTHOR,
          licence: dataset.licence,
          plainReadableName: true,
        },
        createReadStream(join(SEED_DATASETS_DIR, dataset.file)),
      );
      created++;
    }
    return created;
  }
}
