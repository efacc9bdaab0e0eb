import { createHash } from 'node:crypto';
import { httpHandler } from '#http-kit/http-handler.ts';

/**
 * The reference page: Swagger UI from swagger-ui-dist, its files served by this API (`/api/docs/{file}`), no CDN and
 * no call out (`validatorUrl: null`: the badge would ask validator.swagger.io).
 */
const SCRIPT = `
    window.ui = SwaggerUIBundle({
      url: '/api/openapi.json',
      dom_id: '#swagger-ui',
      deepLinking: true,
      validatorUrl: null,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      layout: 'StandaloneLayout',
    });
  `;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Agora API reference</title>
  <link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/api/docs/swagger-ui-bundle.js"></script>
  <script src="/api/docs/swagger-ui-standalone-preset.js"></script>
  <script>${SCRIPT}</script>
</body>
</html>
`;

/**
 * The page runs only this API's own scripts and its one inline script (by hash), talks only to this API, and is never
 * framed. Swagger UI sets inline styles, and shows images of data: URLs.
 */
const CSP = [
  "default-src 'none'",
  `script-src 'self' 'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** GET /api/docs (public): the API reference page. */
export const handler = httpHandler(async () => ({
  file: { bytes: Buffer.from(PAGE), contentType: 'text/html; charset=utf-8' },
  headers: { 'content-security-policy': CSP, 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' },
}));
