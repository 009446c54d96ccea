import * as oidc from 'openid-client';
import { issuerProblem, isInsecureIssuer, IssuerPolicyOptions } from './issuer-policy';

/** What the app needs to speak to one organisation's provider (the secret already opened). */
export interface ProviderSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/**
 * The provider's configuration from its discovery document. The issuer policy is checked again
 * here, not only when it was saved: the rules (production, private networks) may have changed.
 * Plain http is allowed only where the policy let it through (a loopback provider outside production).
 */
export async function discoverProvider(
  settings: ProviderSettings,
  policy: IssuerPolicyOptions,
): Promise<oidc.Configuration> {
  const problem = issuerProblem(settings.issuer, policy);
  if (problem) throw new Error(problem);
  return oidc.discovery(
    new URL(settings.issuer),
    settings.clientId,
    undefined,
    oidc.ClientSecretBasic(settings.clientSecret),
    isInsecureIssuer(settings.issuer) ? { execute: [oidc.allowInsecureRequests] } : undefined,
  );
}
