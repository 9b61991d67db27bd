import type { Transport } from './api/services';

export interface UploadProgress {
  /** Part of the request body sent so far, 0…1. */
  onProgress(fraction: number): void;
  /** The whole body was sent: the service is storing it now. */
  onSent(): void;
}

/**
 * A transport for the typed client that sends the request with XMLHttpRequest, whose upload
 * events report progress (fetch has none). The client still builds the request and reads the
 * answer: this only moves the bytes.
 */
export function xhrTransport(progress: UploadProgress): Transport {
  return async (request) => {
    const body = await request.blob();
    return new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      request.headers.forEach((value, name) => xhr.setRequestHeader(name, value));
      xhr.responseType = 'blob';
      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable && event.total > 0)
          progress.onProgress(event.loaded / event.total);
      });
      xhr.upload.addEventListener('load', () => progress.onSent());
      xhr.addEventListener('load', () =>
        resolve(
          new Response(xhr.response as Blob, {
            status: xhr.status,
            statusText: xhr.statusText,
            headers: headersOf(xhr.getAllResponseHeaders()),
          }),
        ),
      );
      xhr.addEventListener('error', () => reject(new TypeError('Network error')));
      xhr.addEventListener('abort', () => reject(new DOMException('Cancelled', 'AbortError')));
      if (request.signal.aborted) {
        reject(new DOMException('Cancelled', 'AbortError'));
        return;
      }
      request.signal.addEventListener('abort', () => xhr.abort(), { once: true });
      xhr.send(body);
    });
  };
}

function headersOf(raw: string): Headers {
  const headers = new Headers();
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return headers;
}
