import { Container, getRandom } from '@cloudflare/containers';

/**
 * The OCR service's container (services/ocr/Dockerfile): PDF.js renders a page, PaddleOCR's
 * PP-OCRv4 models read it. It keeps no state between requests; it sleeps when idle and its
 * models load again (about a second) on the next request.
 */
export class OcrContainer extends Container {
  override defaultPort = 8080;
  override sleepAfter = '10m';
  // The service reads what it is sent: it has no business on the internet.
  override enableInternet = false;
}

/**
 * Requests from the knowledge worker's OCR_SERVICE binding, spread over OCR_INSTANCES containers. A
 * container that is busy answers 503 (its queue is full), which the ingestion retries.
 */
export default {
  async fetch(request, env): Promise<Response> {
    const instances = Math.max(1, Number.parseInt(env.OCR_INSTANCES, 10) || 1);
    const container = await getRandom(env.OCR_CONTAINER, instances);
    return container.fetch(request);
  },
} satisfies ExportedHandler<OcrEnv>;
