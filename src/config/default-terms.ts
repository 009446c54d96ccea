/**
 * The terms of use shipped with the app. An operator replaces them with their own (TERMS_FILE,
 * a Markdown file); these are a sound starting point, not legal advice for any one country.
 */
export const DEFAULT_TERMS_MARKDOWN = `# Terms and Conditions

These terms apply to everyone who uses this data marketplace: visitors, buyers and sellers of
datasets, and users of API connectors. By registering you accept them.

## 1. Your account

- You give a real name and an e-mail address you can receive mail at, and you keep your password
  and your personal API key to yourself. Everything done with them counts as done by you.
- You may download your data and delete your account at any time from **Account**. Datasets that
  others bought from you stay readable for them after you leave (see 4).

## 2. Buying and getting datasets

- **Get** gives you a free dataset at once. **Buy** charges the price shown at that moment; the
  order, its price and its date are kept on your account and sent to you as a receipt.
- A dataset you bought stays yours: removing it from your list and getting it back costs nothing
  more. If a payment is refunded in full, access to that dataset ends with the refund.
- You may use the data for your own work and your organisation's. You may not resell it or publish
  it as it stands unless its licence (shown on the dataset) allows it.

## 3. Uploading datasets and connectors

- You upload only data you have the right to share, and nothing that breaks the law, another
  person's privacy or anyone's rights. Describe your data truthfully, including its source and
  licence.
- You set the price. When someone buys your dataset, you grant them the use described in 2.
- If you delete or unpublish a dataset that others have paid for, it is archived: it leaves the
  catalogue, and those who bought it keep reading it. Its buyers are told.

## 4. Connectors and streaming

- A connector fetches data from a third-party API with the credentials you give it. You are
  responsible for having the right to use that API and for its terms.
- Stream links carry your API key. Generating a new key stops the old links.

## 5. Fair use

Do not try to reach data you have not been given, to overload the service, or to get around its
limits. We may suspend accounts that do.

## 6. Availability and liability

We run the service with care but cannot promise it is always available or that any data is
accurate: datasets are their sellers' responsibility. Nothing in these terms limits liability
where the law does not allow it.

## 7. Changes

We tell registered users by e-mail before these terms change in a way that matters to them.
Questions: see the Contact page.
`;
