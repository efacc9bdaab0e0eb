import type { TestProject } from 'vitest/node';
import { type DynamoDbLocal, startDynamoDbLocal } from '../../lib/local/dynamodb-local.ts';

/**
 * One DynamoDB Local JVM for the whole run, shared by the projects that talk to it (integration, bundled): the first
 * setup starts it, the last teardown stops it (a JVM's start is seconds during which no test runs). Each test file
 * makes its own table in it.
 */
const RUN = Symbol.for('agora.test.dynamodb-local');
type Shared = { started: Promise<DynamoDbLocal>; users: number };
const state = globalThis as { [RUN]?: Shared };

export default async function setup(project: TestProject) {
  state[RUN] ??= { started: startDynamoDbLocal(), users: 0 };
  const shared = state[RUN];
  shared.users++;
  const dynamo = await shared.started;
  project.provide('dynamodbEndpoint', dynamo.endpoint);
  return async () => {
    if (--shared.users > 0) return;
    delete state[RUN];
    await dynamo.stop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}
