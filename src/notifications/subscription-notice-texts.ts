import type { NoticeText } from './notice-texts';

export interface SubscriptionFacts {
  subscriptionId: string;
  title: string;
  /** Null once the dataset is gone. */
  assetId: string | null;
  /** Why access ended: the subscription was cancelled, or its renewal stayed unpaid. */
  reason: 'canceled' | 'unpaid';
}

const day = (moment: Date) => moment.toISOString().slice(0, 10);

export function subscriptionPastDueNotice(
  appOrigin: string,
  facts: SubscriptionFacts,
  graceEnds: Date,
): NoticeText {
  return {
    subject: `Payment failed for your subscription to ${facts.title}`,
    text: [
      `The renewal of your subscription to ${facts.title} could not be charged.`,
      `You keep access until ${day(graceEnds)}; if the payment still fails by then, access ends.`,
      '',
      `Your subscriptions: ${appOrigin}/manage`,
    ].join('\n'),
  };
}

export function subscriptionEndedNotice(appOrigin: string, facts: SubscriptionFacts): NoticeText {
  const why =
    facts.reason === 'unpaid'
      ? 'its renewal was not paid within the grace period'
      : 'the subscription was cancelled';
  const again = facts.assetId
    ? `To subscribe again: ${appOrigin}/dataset_profile/${facts.assetId}`
    : 'The dataset is no longer offered.';
  return {
    subject: `Your access to ${facts.title} has ended`,
    text: [`Your access to ${facts.title} has ended: ${why}.`, '', again].join('\n'),
  };
}
