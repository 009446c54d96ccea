import type { SeedConnector } from '../connectors.service';

/**
 * Demo connectors against real public APIs. Together their fields use every field feature:
 * text, number, date, bool, select with options, group, conditions, private and include:false.
 */
export const SEED_CONNECTORS: SeedConnector[] = [
  {
    title: 'Open-Meteo Weather Forecast',
    description: 'Hourly weather forecast for any location from Open-Meteo (no API key needed).',
    source: 'https://open-meteo.com',
    author: 'Open-Meteo',
    spec: {
      protocol: 'https',
      base_url: 'https://api.open-meteo.com',
      category: 'Science',
      operations: [
        {
          id: 'forecast',
          name: 'Forecast',
          method: 'GET',
          url_path: '/v1/forecast',
          query: {
            latitude: '{{location.latitude}}',
            longitude: '{{location.longitude}}',
            hourly: '{{hourly}}',
            temperature_unit: '{{temperature_unit}}',
            // Left out while empty (the date range is optional).
            start_date: '{{start_date}}',
            end_date: '{{end_date}}',
            forecast_days: '{{forecast_days}}',
          },
          pagination: { type: 'none' },
          response_path: 'hourly',
        },
      ],
      fields: [
        {
          key: 'location',
          label: 'Location',
          type: 'group',
          fields: [
            { key: 'latitude', label: 'Latitude', type: 'number', required: true, default: 52.52 },
            { key: 'longitude', label: 'Longitude', type: 'number', required: true, default: 13.41 },
          ],
        },
        {
          key: 'hourly',
          label: 'Hourly variable',
          type: 'select',
          options: [
            { label: 'Temperature (2 m)', value: 'temperature_2m' },
            { label: 'Precipitation', value: 'precipitation' },
            { label: 'Wind speed (10 m)', value: 'wind_speed_10m' },
          ],
          default: 'temperature_2m',
          required: true,
        },
        {
          key: 'temperature_unit',
          label: 'Temperature unit',
          type: 'select',
          options: ['celsius', 'fahrenheit'],
          default: 'celsius',
        },
        // A form-only switch: it shows or hides the date fields but is never sent upstream.
        { key: 'use_date_range', label: 'Choose a date range', type: 'bool', include: false, default: false },
        { key: 'start_date', label: 'Start date', type: 'date', conditions: { use_date_range: true } },
        { key: 'end_date', label: 'End date', type: 'date', conditions: { use_date_range: true } },
        { key: 'forecast_days', label: 'Forecast days', type: 'number', default: 7 },
      ],
    },
  },
  {
    title: 'Public Holidays (Nager.Date)',
    description: 'Public holidays of a country and year from the Nager.Date API.',
    source: 'https://date.nager.at',
    author: 'Nager.Date',
    spec: {
      protocol: 'https',
      base_url: 'https://date.nager.at',
      category: 'Public Sector',
      operations: [
        {
          id: 'holidays',
          name: 'Public holidays',
          method: 'GET',
          url_path: '/api/v3/PublicHolidays/{{year}}/{{country_code}}',
          pagination: { type: 'none' },
        },
        { id: 'countries', name: 'Available countries', url_path: '/api/v3/AvailableCountries' },
      ],
      fields: [
        { key: 'year', label: 'Year', type: 'number', required: true, default: 2026 },
        {
          key: 'country_code',
          label: 'Country',
          type: 'select',
          required: true,
          default: 'DE',
          options: ['DE', 'US', 'GB', 'FR', 'ES', 'IT', 'NL', 'AT', 'CH'],
          options_endpoint: { operation: 'countries', value_key: 'countryCode', label_key: 'name' },
        },
      ],
    },
  },
  {
    title: 'Exchange Rates (Frankfurter)',
    description:
      'Euro foreign exchange reference rates published by the European Central Bank, via Frankfurter.',
    source: 'https://www.frankfurter.app',
    author: 'Frankfurter',
    spec: {
      protocol: 'https',
      base_url: 'https://api.frankfurter.app',
      category: 'Finance',
      operations: [
        {
          id: 'rates',
          name: 'Rates on a date',
          method: 'GET',
          url_path: '/{{date}}',
          query: { from: '{{base}}', to: '{{symbols}}' },
          pagination: { type: 'none' },
        },
      ],
      fields: [
        {
          key: 'date',
          label: "Date (YYYY-MM-DD or 'latest')",
          type: 'text',
          required: true,
          default: 'latest',
        },
        {
          key: 'base',
          label: 'Base currency',
          type: 'select',
          options: ['EUR', 'USD', 'GBP', 'CHF', 'JPY'],
          default: 'EUR',
        },
        {
          key: 'symbols',
          label: 'Target currencies (comma-separated)',
          type: 'text',
          default: 'USD,GBP,CHF',
        },
      ],
    },
  },
  {
    title: 'GitHub Public Repositories',
    description: "A GitHub user's or organisation's public repositories, page by page.",
    source: 'https://docs.github.com/rest',
    author: 'GitHub',
    spec: {
      protocol: 'https',
      base_url: 'https://api.github.com',
      category: 'Technology',
      auth: {
        type: 'bearer',
        fields: [{ key: 'token', label: 'Personal access token (optional)', required: false }],
      },
      operations: [
        {
          id: 'repos',
          name: 'Public repositories',
          method: 'GET',
          url_path: '/users/{{username}}/repos',
          headers: { Accept: 'application/vnd.github+json' },
          query: { type: '{{type}}', sort: '{{sort}}' },
          pagination: {
            type: 'page',
            page_param: 'page',
            size_param: 'per_page',
            page_size: 100,
            max_pages: 10,
          },
        },
      ],
      fields: [
        { key: 'username', label: 'User or organisation', type: 'text', required: true, default: 'nodejs' },
        {
          key: 'type',
          label: 'Repository type',
          type: 'select',
          options: ['all', 'owner', 'member'],
          default: 'owner',
        },
        {
          key: 'sort',
          label: 'Sort by',
          type: 'select',
          options: ['created', 'updated', 'pushed', 'full_name'],
          default: 'updated',
        },
        // Goes to the encrypted auth data and is sent as the bearer token, never as a setting.
        { key: 'token', label: 'Personal access token (optional)', type: 'text', private: true },
      ],
    },
  },
];
