import {
  HttpIntegrationType,
  HttpRouteIntegration,
  IntegrationCredentials,
  PayloadFormatVersion,
  type HttpRouteIntegrationBindOptions,
  type HttpRouteIntegrationConfig,
} from 'aws-cdk-lib/aws-apigatewayv2';
import type { IRole } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

/**
 * A Lambda proxy integration (payload 2.0) that API Gateway calls with a role of the stack, instead of
 * HttpLambdaIntegration's resource-based permission on each function: one resource less per route, which keeps
 * the API stack of one Lambda per route well under CloudFormation's 500 resources.
 */
export class RoleInvokedLambdaIntegration extends HttpRouteIntegration {
  constructor(
    id: string,
    private readonly handler: IFunction,
    private readonly invoker: IRole,
  ) {
    super(id);
  }

  bind(_options: HttpRouteIntegrationBindOptions): HttpRouteIntegrationConfig {
    return {
      type: HttpIntegrationType.AWS_PROXY,
      uri: this.handler.functionArn,
      payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
      credentials: IntegrationCredentials.fromRole(this.invoker),
    };
  }
}
