/**
 * The OData feed's service root (GET odata): BI tools add the entity set and `$metadata` to it
 * and send the key themselves (Power BI's Web API credential with ApiKeyName "api_key"), so the
 * key stays out of the address.
 */
export function odataFeedUrl(origin: string = window.location.origin): string {
  return new URL('/api/odata', origin).toString();
}
