import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';

// Before any test module builds an SDK client: point it at the run's DynamoDB Local.
process.env.DYNAMODB_ENDPOINT = inject('dynamodbEndpoint');
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.AWS_ACCESS_KEY_ID = 'local';
process.env.AWS_SECRET_ACCESS_KEY = 'local';
// Uploaded files of the tests go to a temporary folder, not the `npm start` one.
process.env.AGORA_FILES_DIR = join(tmpdir(), 'agora-test-files');
