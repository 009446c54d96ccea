/** Largest JSON request body the API reads (blog posts are the biggest: up to 1,000,000 characters). */
export const JSON_BODY_LIMIT_BYTES = 2 * 1024 * 1024;
export const JSON_BODY_LIMIT_TEXT = '2 MB';
