import type { BlogPostType } from '../entities/blog-post.entity';

export interface SeedPost {
  slug: string;
  title: string;
  type: BlogPostType;
  /** Served by the app itself from frontend/public/images/blog. */
  coverImage: string;
  /** Days before seeding, so the list has a believable history. */
  daysAgo: number;
  content: string;
}

const cover = (name: string) => `/images/blog/${name}.svg`;

/** The demo blog: three posts of each type, written like a real product blog. */
export const SEED_POSTS: SeedPost[] = [
  {
    slug: 'stream-datasets-into-power-bi',
    title: 'Stream your datasets straight into Power BI',
    type: 'update',
    coverImage: cover('stream-power-bi'),
    daysAgo: 2,
    content: `
<p>Every dataset you own or hold can now flow into Power BI, Excel and Google Sheets without a single export. Each account gets a personal API key, and every dataset gets its own stream link.</p>
<h2>What is new</h2>
<ul>
  <li><strong>JSON and CSV</strong>: add <code>format=csv</code> for spreadsheets; JSON is the default for BI tools.</li>
  <li><strong>Real types</strong>: numbers arrive as numbers, booleans as booleans and dates in ISO 8601, so your columns are typed on import.</li>
  <li><strong>Paging</strong>: <code>limit</code> and <code>offset</code> let a tool fetch large tables in slices.</li>
  <li><strong>Header authentication</strong>: send the key as <code>X-API-Key</code> if you prefer to keep it out of URLs.</li>
</ul>
<h2>Try it</h2>
<p>Open <a href="/manage">Manage Data</a>, switch to the <em>Stream Data</em> tab, copy a link and paste it into Power BI under <em>Get Data &rarr; Web</em>.</p>
<pre><code>https://your-host/api/stream/data/&lt;dataset-id&gt;?api_key=&lt;your key&gt;&amp;format=csv</code></pre>
<blockquote>Generating a new key stops the old one at once, so a leaked link is easy to shut.</blockquote>`,
  },
  {
    slug: 'connector-refresh-intervals',
    title: 'Scheduled refreshes for API connectors',
    type: 'update',
    coverImage: cover('refresh-intervals'),
    daysAgo: 9,
    content: `
<p>Connected APIs no longer need a manual <em>Run Now</em>. Pro users can set a <strong>refresh interval</strong> in minutes on any connector, and the platform fetches new records on schedule.</p>
<h2>How it works</h2>
<ol>
  <li>Open a connector you have connected and set <em>Refresh Interval</em>, for example 60.</li>
  <li>Choose whether a rerun should <em>override the existing table</em> or append to it.</li>
  <li>Save the settings. Each run is recorded with its row count and any error.</li>
</ol>
<p>Runs are claimed with a database lock, so even with several app servers every refresh happens exactly once. An interval of 0 keeps the connector manual.</p>`,
  },
  {
    slug: 'faster-csv-uploads',
    title: 'Faster CSV uploads with automatic type detection',
    type: 'update',
    coverImage: cover('csv-uploads'),
    daysAgo: 21,
    content: `
<p>Uploading a CSV now streams the file straight into the database. Files of several hundred megabytes load in seconds, and your browser shows progress while it happens.</p>
<h2>Column types, detected</h2>
<p>Every column is checked as it loads:</p>
<table>
  <thead><tr><th>Values like</th><th>Become</th></tr></thead>
  <tbody>
    <tr><td>42, -7</td><td>integer</td></tr>
    <tr><td>3.14, 1e-3</td><td>decimal</td></tr>
    <tr><td>true, no</td><td>boolean</td></tr>
    <tr><td>2026-03-01</td><td>date</td></tr>
    <tr><td>anything else</td><td>text</td></tr>
  </tbody>
</table>
<p>A column whose values do not all fit a type falls back to text, so nothing is lost. A failed upload leaves nothing half-finished behind.</p>`,
  },
  {
    slug: 'retail-price-monitoring',
    title: 'How a retailer tracks competitor prices every morning',
    type: 'use_case',
    coverImage: cover('retail-prices'),
    daysAgo: 5,
    content: `
<p>A mid-sized electronics retailer used to collect competitor prices by hand once a week. Today a connector pulls them every morning and a Power BI report flags every product where they are no longer competitive.</p>
<h2>The setup</h2>
<ul>
  <li>A <strong>price API connector</strong> with the product list as an array setting, one request sequence per product group.</li>
  <li>A refresh interval of 1,440 minutes with <em>override on rerun</em>, so the table always holds today's prices.</li>
  <li>The connector's stream link as a Power BI data source, refreshed after the run.</li>
</ul>
<h2>The result</h2>
<p>Price reactions went from a week to a day. <strong>Margin on the 200 most contested products rose by 1.8 points</strong> in the first quarter, because the team stopped cutting prices where it did not need to.</p>
<blockquote>"The report is the first thing our category managers open in the morning." &mdash; Head of Pricing</blockquote>`,
  },
  {
    slug: 'weather-energy-forecasts',
    title: 'Weather data for sharper energy demand forecasts',
    type: 'use_case',
    coverImage: cover('energy-forecasts'),
    daysAgo: 14,
    content: `
<p>A municipal utility combined its own consumption data with an hourly weather feed from the marketplace to forecast demand for the next 48 hours.</p>
<h2>Data used</h2>
<ol>
  <li>Hourly temperature, wind speed and cloud cover for twelve locations, fetched by a weather connector.</li>
  <li>Five years of smart-meter consumption, uploaded once as a CSV dataset.</li>
  <li>Public holiday calendars from the free catalogue.</li>
</ol>
<p>Both tables stream into the analytics team's notebook with the same API key. Forecast error on cold winter days fell from 7.4&nbsp;% to 4.1&nbsp;%, which means less expensive balancing energy bought at short notice.</p>
<p>Read more about connectors in the <a href="/documentation">connector documentation</a>.</p>`,
  },
  {
    slug: 'marketing-dashboard-excel',
    title: 'A marketing dashboard in Excel in ten minutes',
    type: 'use_case',
    coverImage: cover('excel-dashboard'),
    daysAgo: 30,
    content: `
<p>You do not need a BI platform to get live data into a dashboard. Excel's Power Query reads our CSV stream links directly.</p>
<h2>Step by step</h2>
<ol>
  <li>Get access to the <em>Campaign Performance</em> dataset in the <a href="/datastore">DataStore</a>.</li>
  <li>In Excel choose <strong>Data &rarr; From Web</strong> and paste the dataset's stream link with <code>format=csv</code>.</li>
  <li>Load the table, insert a PivotTable and a PivotChart by channel and week.</li>
  <li>Set the query to refresh when the file opens.</li>
</ol>
<p>Every time the workbook opens, it shows the latest numbers. Share the workbook without the key by storing the link in a named parameter.</p>`,
  },
  {
    slug: 'data-provenance-marketplaces',
    title: 'Data provenance in open data marketplaces',
    type: 'whitepaper',
    coverImage: cover('data-provenance'),
    daysAgo: 45,
    content: `
<p>Buyers of data need to know where it came from, how it was processed and whether they may use it. This paper describes the provenance model behind our marketplace.</p>
<h2>1. Three questions every dataset must answer</h2>
<ul>
  <li><strong>Origin</strong>: who collected the data, when, and by which method.</li>
  <li><strong>Lineage</strong>: which transformations turned raw records into the published table.</li>
  <li><strong>Rights</strong>: the licence, and which uses it allows.</li>
</ul>
<h2>2. Provenance as metadata, not paperwork</h2>
<p>Source and author are first-class fields of every asset. Connector tables record the run that produced each row and the time it was fetched, so lineage is a query, not an e-mail thread.</p>
<h2>3. Access as an auditable fact</h2>
<p>Every grant, purchase and removal is stored. A seller can see who holds a dataset; a buyer can prove when they obtained it.</p>
<h2>4. Conclusion</h2>
<p>Trust in a marketplace grows from facts the platform records itself. We invite feedback at <a href="mailto:research@example.com">research@example.com</a>.</p>`,
  },
  {
    slug: 'declarative-connector-dsl',
    title: 'A declarative language for REST API connectors',
    type: 'whitepaper',
    coverImage: cover('connector-dsl'),
    daysAgo: 60,
    content: `
<p>Most API integrations repeat the same handful of patterns: authentication, pagination, and finding the records in a response. Our connector specification describes them as data instead of code.</p>
<h2>Design goals</h2>
<ol>
  <li>Anyone who can read API documentation can write a connector.</li>
  <li>A specification can be validated before it ever runs.</li>
  <li>Secrets never appear in settings or logs.</li>
</ol>
<h2>The building blocks</h2>
<pre><code>{
  "auth": { "type": "bearer" },
  "operations": [{
    "id": "list_orders",
    "method": "GET",
    "url_path": "/v1/orders",
    "pagination": { "type": "cursor" },
    "response_path": "data.orders"
  }]
}</code></pre>
<p>Supported authentication types are bearer, api_key, basic, header and oauth2; pagination strategies are page, cursor, offset and none. WebSocket, GraphQL and nested transforms are deliberately out of scope.</p>`,
  },
  {
    slug: 'pricing-data-products',
    title: 'Pricing data products: free, freemium and paid',
    type: 'whitepaper',
    coverImage: cover('pricing-data'),
    daysAgo: 90,
    content: `
<p>Setting a price for a dataset is hard: its value depends on what the buyer does with it. This paper compares three models we see work on the marketplace.</p>
<h2>Free</h2>
<p>Free datasets build an audience and a reputation. They work best for public-sector data and as samples of a larger paid product.</p>
<h2>Freemium</h2>
<p>A free sample with a paid full version lets buyers check quality first. Our detail pages show a <em>Sample Data Preview</em> for exactly this reason.</p>
<h2>Paid</h2>
<p>One-off prices suit stable, curated datasets; connectors that refresh continuously justify recurring value. Whatever the model, prices are shown to the cent so buyers can compare.</p>
<table>
  <thead><tr><th>Model</th><th>Best for</th><th>Watch out for</th></tr></thead>
  <tbody>
    <tr><td>Free</td><td>Reach, trust</td><td>No revenue</td></tr>
    <tr><td>Freemium</td><td>Conversion</td><td>Sample too generous</td></tr>
    <tr><td>Paid</td><td>Curated data</td><td>Proving quality up front</td></tr>
  </tbody>
</table>`,
  },
];
