import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { RouteDefinition } from '../functions/routes.ts';
import type { ApiStack, RoomEvents } from './api-stack.ts';

export interface RouteStackProps extends StackProps {
  /** The API the routes join (its authorizer, roles and log group). */
  api: ApiStack;
  routes: readonly RouteDefinition[];
  /** The auction room's WebSocket URL (RoomStack), for the routes that show it (the room page). */
  roomSocket?: string;
  /** The observers' broadcast (RoomStack `observers`), for the same routes. */
  roomEvents?: RoomEvents;
}

/**
 * A family of the API's routes (api-stack.ts `routeStackOf`): their functions, integrations and routes, so that no
 * stack of a growing API nears CloudFormation's 500 resources. Named `<API stack>-<family>`: the API's invoker role
 * may invoke the functions whose names start with the API stack's.
 */
export class RouteStack extends Stack {
  constructor(scope: Construct, id: string, props: RouteStackProps) {
    super(scope, id, props);
    for (const route of props.routes) props.api.serve(this, route, props.roomSocket, props.roomEvents);
  }
}
