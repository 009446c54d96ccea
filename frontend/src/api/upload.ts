import { ApiError, errorText, parseBody } from './client';

/**
 * POST a multipart form to `/api/<path>` with upload progress. fetch() cannot report request-body
 * progress, so this one call uses XMLHttpRequest; errors come back as ApiError like every other call.
 */
export function uploadWithProgress<T>(
  path: string,
  form: FormData,
  onProgress: (loaded: number, total: number) => void,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', `/api/${path.replace(/^\//, '')}`);
    request.withCredentials = true;
    request.setRequestHeader('Accept', 'application/json');
    request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : 0);
    request.onload = () => {
      const body = parseBody(request.responseText);
      if (request.status >= 200 && request.status < 300) resolve(body as T);
      else reject(new ApiError(request.status, errorText(body) ?? request.statusText, body));
    };
    request.onerror = () => reject(new TypeError('Network error'));
    request.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(form);
  });
}

/** Whole percent of an upload for the progress bar; unknown totals show as 0. */
export function uploadPercent(loaded: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.min(100, Math.max(0, Math.round((loaded / total) * 100)));
}
