import { CfnOutput } from 'aws-cdk-lib';
import { ApiMapping, DomainName, type IApi, type IStage, SecurityPolicy } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { ARecord, HostedZone, RecordTarget } from 'aws-cdk-lib/aws-route53';
import { ApiGatewayv2DomainProperties } from 'aws-cdk-lib/aws-route53-targets';
import { Construct } from 'constructs';

/** A custom domain of one API (lib/parameters.ts `domains`): its name, its ACM certificate, and the zone, if any. */
export interface CustomDomainProps {
  domainName: string;
  /** An ACM certificate of the stack's region covering `domainName` (regional endpoint). */
  certificateArn: string;
  /** A Route 53 hosted zone of the domain: an alias record (A) is made in it; none: make the DNS record yourself. */
  hostedZone?: { id: string; name: string };
  api: IApi;
  /** The stage mapped (a WebSocket API's; an HTTP API's `$default` when absent). */
  stage?: IStage;
  /** What the domain serves, for the output's description. */
  serves: string;
}

/**
 * API Gateway's custom domain name (regional, TLS 1.2), mapped at its root to the API's stage, and, given a hosted
 * zone, its alias records. The `<id>Target` output is the API Gateway host the DNS record points to (CNAME, or an
 * alias in Route 53) when the zone is elsewhere.
 */
export class CustomDomain extends Construct {
  readonly domain: DomainName;
  constructor(scope: Construct, id: string, props: CustomDomainProps) {
    super(scope, id);
    this.domain = new DomainName(this, 'Name', {
      domainName: props.domainName,
      certificate: Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn),
      securityPolicy: SecurityPolicy.TLS_1_2,
    });
    new ApiMapping(this, 'Mapping', { api: props.api, domainName: this.domain, stage: props.stage });
    if (props.hostedZone) {
      const zone = HostedZone.fromHostedZoneAttributes(this, 'Zone', {
        hostedZoneId: props.hostedZone.id,
        zoneName: props.hostedZone.name,
      });
      const target = RecordTarget.fromAlias(
        new ApiGatewayv2DomainProperties(this.domain.regionalDomainName, this.domain.regionalHostedZoneId),
      );
      new ARecord(this, 'Alias', { zone, recordName: props.domainName, target });
    }
    new CfnOutput(scope, `${id}Target`, {
      value: this.domain.regionalDomainName,
      description: `${props.domainName} (${props.serves}): point a CNAME (or a Route 53 alias) of it at this host`,
    });
  }
}
