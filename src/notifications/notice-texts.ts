/** What a notice says: its subject and plain text, the same on the account page and in the e-mail. */
export interface NoticeText {
  subject: string;
  text: string;
}

export interface OrderFacts {
  orderId: string;
  title: string;
  /** Decimal amount as stored ("19.99"). */
  amount: string;
  currency: string;
  /** When the order was paid, or refunded. */
  at: Date;
  /** Null once the dataset is gone. */
  assetId: string | null;
  /** The dataset's readable name (its stream link, its name in SQL); null once it is gone. */
  tableName: string | null;
}

const price = (order: OrderFacts) => `${order.amount} ${order.currency}`;
const day = (moment: Date) => moment.toISOString().slice(0, 10);

/** Where and how the buyer reads what they bought; no key in it, since mail is not a safe place for one. */
function howToRead(appOrigin: string, assetId: string, tableName: string): string[] {
  return [
    'How to read the data:',
    `- In the browser: ${appOrigin}/dataset_profile/${assetId} (Download: CSV, JSON, Parquet or Excel).`,
    `- In a BI tool: ${appOrigin}/api/stream/data/${tableName}?api_key=<your API key from ${appOrigin}/manage>.`,
  ];
}

export function receiptNotice(appOrigin: string, order: OrderFacts): NoticeText {
  return {
    subject: `Receipt for ${order.title}`,
    text: [
      `Thank you for your purchase.`,
      '',
      `Order: ${order.orderId}`,
      `Dataset: ${order.title}`,
      `Price: ${price(order)}`,
      `Date: ${day(order.at)}`,
      '',
      ...(order.assetId && order.tableName ? howToRead(appOrigin, order.assetId, order.tableName) : []),
    ].join('\n'),
  };
}

export function refundNotice(appOrigin: string, order: OrderFacts, accessRemoved: boolean): NoticeText {
  return {
    subject: `Refund for ${order.title}`,
    text: [
      `Your order ${order.orderId} for "${order.title}" was refunded in full (${price(order)}) on ${day(order.at)}.`,
      accessRemoved
        ? 'Your access to the dataset ended with the refund. You can buy it again at any time.'
        : 'No access had been granted for this order.',
      `Your orders: ${appOrigin}/account`,
    ].join('\n'),
  };
}

export function archivedNotice(
  appOrigin: string,
  dataset: { id: string; title: string },
  live = false,
): NoticeText {
  return {
    subject: `${dataset.title} was archived by its owner`,
    text: [
      `The owner of "${dataset.title}" has withdrawn it from the catalogue.`,
      'You keep your access: the data stays readable for you as before.',
      ...(live ? ['It is no longer refreshed: the data stays as it was after its last refresh.'] : []),
      `${appOrigin}/dataset_profile/${dataset.id}`,
    ].join('\n'),
  };
}
