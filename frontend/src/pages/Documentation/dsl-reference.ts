import type { FieldRow } from './FieldTable';

export const TOP_LEVEL_FIELDS: FieldRow[] = [
  {
    name: 'title',
    type: 'string',
    description: 'Name shown in the DataStore. Required (also entered in the upload form).',
  },
  {
    name: 'description',
    type: 'string',
    description: 'What the API delivers; shown on the connector profile.',
  },
  {
    name: 'protocol',
    type: 'string',
    description:
      'Transport of the API: JSON over HTTP or HTTPS. "rest" (the usual value), "http" and "https", in lower or upper case, all mean that.',
  },
  {
    name: 'base_url',
    type: 'string',
    description: "Scheme and host (and optional base path) that every operation's url_path is appended to.",
  },
  { name: 'category', type: 'string', description: 'Catalogue category; connectors default to "API".' },
  {
    name: 'auth',
    type: 'object',
    description: 'How requests authenticate (see Authentication). Omit it for open APIs.',
  },
  {
    name: 'requests',
    type: 'object',
    description: 'Timeout, retries, backoff and rate budget of every request (see Errors and limits).',
  },
  {
    name: 'operations',
    type: 'array',
    description: 'The requests (streams) the connector can make; at least one (see Operations).',
  },
  {
    name: 'fields',
    type: 'array',
    description: 'Settings every operation shares, as schema fields (see Fields).',
  },
];

export const AUTH_FIELDS: FieldRow[] = [
  {
    name: 'type',
    type: 'string',
    description: 'One of bearer, api_key, basic, header, oauth2, session (or none).',
  },
  {
    name: 'in',
    type: '"header" | "query"',
    description:
      'api_key, session and oauth2 with a grant_type: send the credential as a request header (default) or as a query parameter.',
  },
  {
    name: 'name',
    type: 'string',
    description: 'Header or query parameter name, e.g. "X-API-Key" or "apikey".',
  },
  {
    name: 'format',
    type: 'string',
    description:
      'Value template built from the auth fields, e.g. "Token {{api_key}}". Each type has a sensible default.',
  },
  {
    name: 'fields',
    type: 'array',
    description:
      'Credentials the user enters when connecting: objects with key, label and required. They are stored encrypted and never shown again.',
  },
  {
    name: 'grant_type',
    type: '"client_credentials" | "refresh_token"',
    description:
      'oauth2 only: exchange credentials for an access token at token_url. client_credentials needs auth fields client_id and client_secret; refresh_token needs client_id and refresh_token.',
  },
  {
    name: 'token_url',
    type: 'string',
    description: 'oauth2 with grant_type: the token endpoint, a full URL or a path under base_url.',
  },
  {
    name: 'scopes',
    type: 'string[]',
    description: 'oauth2 with grant_type: scopes asked for, sent space-separated.',
  },
  {
    name: 'token_params',
    type: 'object',
    description:
      'oauth2 with grant_type: extra form fields for the token request (templates over auth fields).',
  },
  {
    name: 'login',
    type: 'object',
    description:
      'session only: the login request, with url_path, method (POST by default), body, body_format (json or form), headers, and where its answer holds the token: token_path (body) or token_header.',
  },
];

export const AUTH_TYPES: FieldRow[] = [
  {
    name: 'bearer',
    type: 'header',
    description: 'Sends "Authorization: Bearer <token>" using the first auth field (default key token).',
  },
  {
    name: 'api_key',
    type: 'header or query',
    description:
      'Sends the key in the header or query parameter given by in and name (defaults X-API-Key / api_key).',
  },
  {
    name: 'basic',
    type: 'header',
    description: 'HTTP Basic authentication from the first two auth fields (username and password).',
  },
  {
    name: 'header',
    type: 'header',
    description: 'Any custom header: name is the header, format the value template.',
  },
  {
    name: 'oauth2',
    type: 'header',
    description:
      'Without grant_type: a ready access token (auth field access_token) sent as a bearer token. With grant_type: the token is obtained at token_url, cached per connection (encrypted), renewed before a request that would go out within a minute of its expiry (a token that lives less than two minutes: once half its life has passed) and after a 401.',
  },
  {
    name: 'session',
    type: 'header or query',
    description:
      'A login request first (login), whose answer gives a token; later requests carry it as {{session_token}} in format (default "Bearer {{session_token}}") under name. A 401 logs in again once.',
  },
];

export const OPERATION_FIELDS: FieldRow[] = [
  { name: 'id', type: 'string', description: 'Unique identifier of the operation within the spec.' },
  { name: 'name', type: 'string', description: 'Human-readable name shown in the setup form.' },
  { name: 'method', type: '"GET" | "POST"', description: 'HTTP method; GET by default.' },
  {
    name: 'url_path',
    type: 'string',
    description: 'Path appended to base_url; may contain {{placeholders}} filled from settings.',
  },
  { name: 'headers', type: 'object', description: 'Extra request headers: name to value template.' },
  {
    name: 'query',
    type: 'object',
    description:
      'Query parameters: name to value template. A parameter whose value is one empty placeholder is left out.',
  },
  {
    name: 'body',
    type: 'object or string',
    description: 'JSON body template for POST requests; placeholders are filled with JSON-safe values.',
  },
  {
    name: 'body_format',
    type: '"json" | "form"',
    description: 'POST only: send the body as JSON (default) or application/x-www-form-urlencoded.',
  },
  {
    name: 'response_filters',
    type: 'array',
    description: 'What to do with particular answers: ignore, fail or retry (see Errors and limits).',
  },
  {
    name: 'parent',
    type: 'object',
    description:
      'Substream: run this operation once per record of another one; operation, field of the parent record, and as, the setting that receives it (see Streams).',
  },
  {
    name: 'params_fields',
    type: 'array',
    description:
      "Schema fields specific to this operation, added to the shared fields in the setup form; the ones no template uses go to this operation's query string under their keys.",
  },
  { name: 'pagination', type: 'object', description: 'How to fetch further pages (see Pagination).' },
  {
    name: 'conditional_requests',
    type: 'boolean',
    description:
      'Keeps the answer’s ETag and Last-Modified and sends them next time as If-None-Match and If-Modified-Since: a 304 answer means no change, and the table stays as it is (even when overriding). For operations of one request (no pagination, windows or parent).',
  },
  {
    name: 'response_path',
    type: 'string',
    description: 'Where the records sit in the JSON response (see Response path).',
  },
];

export const SCHEMA_FIELD_KEYS: FieldRow[] = [
  {
    name: 'key',
    type: 'string',
    description:
      'Setting name, used as {{key}} in templates. Keys inside a group are addressed as group.key.',
  },
  { name: 'label', type: 'string', description: 'Label shown in the form.' },
  {
    name: 'type',
    type: 'string',
    description:
      'text, number, date, bool (or boolean), select or group. Saved settings must fit it (a date as YYYY-MM-DD, a select one of its options; a list of such values is also accepted), and keys no field declares are refused.',
  },
  { name: 'required', type: 'boolean', description: 'The form refuses to save while the field is empty.' },
  {
    name: 'default',
    type: 'any',
    description:
      'Value filled in when the user has not chosen one; it must fit the field as a typed value would.',
  },
  {
    name: 'options',
    type: 'array',
    description: 'select only: plain values, or objects with label and value.',
  },
  {
    name: 'options_endpoint',
    type: 'string',
    description:
      'select only: a path (relative to base_url) whose JSON answer lists the options, instead of a fixed options list. The setup form loads them as soon as the fields in depends_on have values; before the user has connected, the request is sent without credentials.',
  },
  {
    name: 'depends_on',
    type: 'string[]',
    description:
      'Keys of fields that must be filled first; their values can be used as placeholders in options_endpoint, and changing one reloads the options.',
  },
  {
    name: 'conditions',
    type: 'object',
    description:
      'Show the field only when other fields hold the given value (or one of a list of values), e.g. {"mode": "advanced"}.',
  },
  {
    name: 'private',
    type: 'boolean',
    description: 'The value is a secret: it goes to the encrypted auth data, not to the visible settings.',
  },
  {
    name: 'include',
    type: 'boolean',
    description: 'false leaves the value out of the saved settings (a helper field only for the form).',
  },
  { name: 'fields', type: 'array', description: 'group only: the nested fields of the group.' },
  { name: 'description', type: 'string', description: 'Help text under the field.' },
];

export const FIELD_TYPES: FieldRow[] = [
  { name: 'text', type: 'string', description: 'Single-line text input.' },
  { name: 'number', type: 'number', description: 'Numeric input.' },
  { name: 'date', type: 'string (YYYY-MM-DD)', description: 'Date picker.' },
  { name: 'bool / boolean', type: 'boolean', description: 'Checkbox.' },
  { name: 'select', type: 'one of options', description: 'Drop-down list from options or options_endpoint.' },
  {
    name: 'group',
    type: 'object',
    description: 'A titled block of nested fields; its values are saved as a nested object.',
  },
];

export const PAGINATION_TYPES: FieldRow[] = [
  { name: 'none', type: 'single request', description: 'One request, no further pages (the default).' },
  {
    name: 'page',
    type: 'page number',
    description:
      'Sends page_param (default page) from start_page (default 1), plus size_param = page_size if given.',
  },
  {
    name: 'offset',
    type: 'record offset',
    description:
      'Sends offset_param (default offset) and limit_param (default limit) = page_size, advancing by the records received.',
  },
  {
    name: 'cursor',
    type: 'next cursor',
    description:
      'Reads the next cursor from the body at cursor_path, from a response header (cursor_header), or from a field of the last record (cursor_record_field), and sends it as cursor_param (default cursor).',
  },
  {
    name: 'link_header',
    type: 'Link: rel="next"',
    description:
      'Follows the next link of the Link response header (RFC 8288) as given, until there is none.',
  },
  {
    name: 'next_url',
    type: 'full next URL',
    description: 'Follows the full URL found in the body at next_url_path (e.g. links.next) as given.',
  },
];

export const PAGINATION_FIELDS: FieldRow[] = [
  { name: 'type', type: 'string', description: 'page, cursor, offset, link_header, next_url or none.' },
  {
    name: 'page_param / start_page',
    type: 'string / number',
    description: 'Page strategy: parameter name and first page number.',
  },
  { name: 'offset_param / limit_param', type: 'string', description: 'Offset strategy: parameter names.' },
  {
    name: 'cursor_param / cursor_path',
    type: 'string',
    description: 'Cursor strategy: parameter name, and where the next cursor is in the response.',
  },
  {
    name: 'cursor_header / cursor_record_field',
    type: 'string',
    description: 'Cursor from a response header, or from this field of the last record (Stripe: id).',
  },
  { name: 'next_url_path', type: 'string', description: 'next_url: where the next URL is in the body.' },
  {
    name: 'inject_into',
    type: '"query" | "body" | "header" | "path"',
    description:
      'Where the page number, offset or cursor goes: a query parameter (default), a field of the JSON body (dotted path, POST only), a header, or the {{page_token}} placeholder of url_path.',
  },
  {
    name: 'size_param / page_size',
    type: 'string / number',
    description:
      'Page size parameter and value. A page shorter than page_size while the answer says more exist means the API does not accept that size: the run fails.',
  },
  {
    name: 'has_more_path',
    type: 'string',
    description: 'A boolean in the body (e.g. has_more); false ends the sequence.',
  },
  {
    name: 'stop_on_short_page',
    type: 'boolean',
    description:
      'true: a page shorter than page_size ends the sequence, with no further request. false: paging goes on while a next page is given. Unset: page and offset paging ask for one more page after a short one, which must be empty (rows there mean the API caps the page size: the run fails); other paging goes on while a next page is given.',
  },
  {
    name: 'total_path',
    type: 'string',
    description: 'Where the total record count is in the response; fetching stops once it is reached.',
  },
  {
    name: 'max_pages',
    type: 'number',
    description:
      'Upper bound on the pages fetched per request sequence; a run stopped by it while more pages exist succeeds with a warning. An incremental run it stops keeps its previous state unless its records came oldest first, and says the read was partial.',
  },
];

export const UNSUPPORTED = [
  { name: 'WebSocket', text: 'Streaming sockets are not supported; connectors make plain HTTP requests.' },
  { name: 'GraphQL', text: 'GraphQL endpoints are not supported as a protocol.' },
  {
    name: 'Nested transforms',
    text: 'Keys named transform or transforms (free-form transformation pipelines, scripts) are refused. Records are shaped only by the declared, flat steps of records: path with wildcards, zip, flatten_depth, add_fields, remove_fields, rename_fields and filter (see Records).',
  },
  {
    name: 'OAuth2 authorization-code flow',
    text: 'No interactive sign-in at the provider: use grant_type client_credentials or refresh_token, or a supplied access token.',
  },
];
