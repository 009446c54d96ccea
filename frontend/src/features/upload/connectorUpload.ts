import type { UploadConnectorInput } from '../../api/connectors';

/** Client-side checks of the Upload Connector form and reading of the server's validation problems. */

export const INVALID_SPEC_JSON = 'Invalid JSON in connector spec.';
/** Said on the new connector's page: it also takes the place of an earlier "Upload failed". */
export const CONNECTOR_UPLOADED = 'Connector uploaded.';
export const TITLE_REQUIRED = 'Title is required.';
export const TITLE_FROM_SPEC = "Leave empty to use the spec's title.";
export const DESCRIPTION_FROM_SPEC = "Leave empty to use the spec's description.";

export interface ConnectorUploadForm {
  title: string;
  description: string;
  isPublic: boolean;
  price: string;
  specText: string;
}

export type SpecParse =
  { spec: Record<string, unknown>; error?: undefined } | { spec?: undefined; error: string };

/** The connector spec must be a JSON object, else 'Invalid JSON in connector spec.'. */
export function parseConnectorSpec(text: string): SpecParse {
  try {
    const spec: unknown = JSON.parse(text);
    if (spec && typeof spec === 'object' && !Array.isArray(spec))
      return { spec: spec as Record<string, unknown> };
  } catch {
    // Falls through to 'Invalid JSON in connector spec.'.
  }
  return { error: INVALID_SPEC_JSON };
}

export type UploadCheck =
  { payload: UploadConnectorInput; error?: undefined } | { payload?: undefined; error: string };

const specText = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * The spec is read first (its problems are the ones to fix first); an empty title or description
 * takes the spec's own.
 */
export function checkConnectorUpload(form: ConnectorUploadForm): UploadCheck {
  const parsed = parseConnectorSpec(form.specText);
  if (parsed.error !== undefined) return { error: parsed.error };
  const title = form.title.trim() || specText(parsed.spec.title);
  if (!title) return { error: TITLE_REQUIRED };
  const price = form.price.trim() === '' ? 0 : Number(form.price);
  if (!Number.isFinite(price) || price < 0) return { error: 'Price must be 0 or more.' };
  return {
    payload: {
      title,
      description: form.description.trim() || specText(parsed.spec.description),
      is_public: form.isPublic,
      price: Math.round(price * 100) / 100,
      spec: parsed.spec,
    },
  };
}

export interface SpecProblem {
  path: string;
  message: string;
}

/**
 * The server answers 400 with `errors` listing problems by path. Accepts the shapes that appear in
 * practice: [{path, message}], ["path: message"] (what the API sends), or {path: message | message[]}.
 */
export function specProblems(body: unknown): SpecProblem[] {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (Array.isArray(errors)) {
    return errors.map((entry) => {
      if (typeof entry === 'string') {
        // "spec/operations/0/method: must be one of: GET, POST" -> path and message.
        const split = /^(\S+): (.+)$/.exec(entry);
        return split ? { path: split[1], message: split[2] } : { path: '', message: entry };
      }
      const { path, message, instancePath } = (entry ?? {}) as Record<string, unknown>;
      const where = Array.isArray(path) ? path.join('.') : String(path ?? instancePath ?? '');
      return { path: where, message: String(message ?? '') };
    });
  }
  if (errors && typeof errors === 'object') {
    return Object.entries(errors as Record<string, unknown>).flatMap(([path, messages]) =>
      (Array.isArray(messages) ? messages : [messages]).map((message) => ({
        path,
        message: String(message),
      })),
    );
  }
  return [];
}

/** A starting spec a newcomer can edit, in the connector DSL (see /documentation). */
export const EXAMPLE_SPEC = JSON.stringify(
  {
    title: 'My API',
    description: 'What this API returns',
    protocol: 'https',
    auth: { type: 'api_key', in: 'query', fields: [{ key: 'api_key', label: 'API key', required: true }] },
    operations: [
      {
        id: 'list',
        name: 'List records',
        method: 'GET',
        url_path: 'https://api.example.com/records',
        query: { q: '{{query}}' },
        params_fields: [{ key: 'query', label: 'Search', type: 'text', required: true }],
        pagination: { type: 'none' },
        response_path: 'data',
      },
    ],
  },
  null,
  2,
);

/** Where to go after an upload: the server's redirectUrl as an in-app path, else the new connector's profile. */
export function afterUploadPath(answer: { id?: string; redirectUrl?: string }, origin: string): string {
  if (answer.redirectUrl) {
    const url = new URL(answer.redirectUrl, origin);
    if (url.origin === origin) return `${url.pathname}${url.search}${url.hash}`;
  }
  return answer.id ? `/connector_profile/${answer.id}` : '/datastore';
}
