/** The path of the demo feed the app serves itself (src/products/demo). */
export const DEMO_FEED_PATH = '/api/demo/live-feed';

/**
 * Where connectors reach the app's own demo feed: the literal loopback address of the port the app
 * listens on. This one address is exempt from the private-network refusal (see EngineLimits).
 */
export function demoFeedUrl(port: number): string {
  return `http://127.0.0.1:${port}${DEMO_FEED_PATH}`;
}
