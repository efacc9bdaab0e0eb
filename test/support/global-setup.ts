import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../lib/local/dynamodb-local.ts';

/** One DynamoDB Local JVM for the whole integration run; each test file makes its own table in it. */
export default async function setup(project: TestProject) {
  const dynamo = await startDynamoDbLocal();
  project.provide('dynamodbEndpoint', dynamo.endpoint);
  return () => dynamo.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}
