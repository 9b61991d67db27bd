/**
 * Starts Swagger UI (loaded before this file from /assets/swagger-ui/) on the API reference
 * page (shared/service/api-reference-page.ts), for the OpenAPI document the page names. Kept
 * out of the page so that the page's CSP needs no inline script.
 */
interface SwaggerUiOptions {
  url: string;
  domNode: HTMLElement;
  deepLinking: boolean;
  validatorUrl: null;
  docExpansion: 'list' | 'full' | 'none';
  defaultModelsExpandDepth: number;
  displayRequestDuration: boolean;
  persistAuthorization: boolean;
  tryItOutEnabled: boolean;
}

declare const SwaggerUIBundle: ((options: SwaggerUiOptions) => unknown) | undefined;

const root = document.getElementById('api-reference');
const url = root?.dataset.openapi;
if (root && url && typeof SwaggerUIBundle === 'function') {
  SwaggerUIBundle({
    url,
    domNode: root,
    deepLinking: true,
    // The default sends the document to validator.swagger.io for a badge: no third parties.
    validatorUrl: null,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    // The token stays in the page's memory only: gone when the tab closes.
    persistAuthorization: false,
    tryItOutEnabled: false,
  });
}
