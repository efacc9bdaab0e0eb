/**
 * The files of swagger-ui-dist the docs page loads (`GET /api/docs/{file}`): routes.ts ships them with that route's
 * function, and its handler serves only these. A module of its own so the handler's bundle does not carry the table.
 */
export const SWAGGER_UI_FILES = [
  'swagger-ui-dist/swagger-ui.css',
  'swagger-ui-dist/swagger-ui-bundle.js',
  'swagger-ui-dist/swagger-ui-standalone-preset.js',
] as const;
