import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in of AWS STS AssumeRole (query protocol, XML answers of the real service), for
 * `AWS_ENDPOINT_URL_STS`. Any external id but the refused ones assumes the role.
 */
export async function startStsStandin(o: { refuseExternalIds?: string[] } = {}) {
  const requests: { authorization?: string; params: Record<string, string> }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const params = Object.fromEntries(new URLSearchParams(body));
      requests.push({ authorization: req.headers.authorization, params });
      const denied = (o.refuseExternalIds ?? []).includes(params.ExternalId ?? '');
      res.writeHead(denied ? 403 : 200, { 'content-type': 'text/xml', 'x-amzn-requestid': 'c6104cbe-af31-11e0-8154-cbc7ccf896c7' });
      res.end(denied ? denied403(params.RoleArn ?? '') : assumed(params.RoleArn ?? '', params.RoleSessionName ?? 'gantry'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const assumed = (roleArn: string, session: string) => `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleResult>
    <AssumedRoleUser><AssumedRoleId>AROA3XFRBF535PLBIFPI4:${session}</AssumedRoleId><Arn>${roleArn.replace(':iam::', ':sts::').replace(':role/', ':assumed-role/')}/${session}</Arn></AssumedRoleUser>
    <Credentials>
      <AccessKeyId>ASIAIOSFODNN7EXAMPLE</AccessKeyId>
      <SecretAccessKey>wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY</SecretAccessKey>
      <SessionToken>FwoGZXIvYXdzEXAMPLE</SessionToken>
      <Expiration>${new Date(Date.now() + 3600_000).toISOString()}</Expiration>
    </Credentials>
    <PackedPolicySize>0</PackedPolicySize>
  </AssumeRoleResult>
  <ResponseMetadata><RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId></ResponseMetadata>
</AssumeRoleResponse>`;

const denied403 = (roleArn: string) => `<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <Error><Type>Sender</Type><Code>AccessDenied</Code><Message>User: arn:aws:iam::999999999999:user/gantry is not authorized to perform: sts:AssumeRole on resource: ${roleArn}</Message></Error>
  <RequestId>4b5f3d9c-0a6c-4a57-9f3e-1b2c3d4e5f60</RequestId>
</ErrorResponse>`;
