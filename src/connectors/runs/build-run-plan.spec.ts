import type { ConnectorSpec } from '../dsl/connector-spec.types';
import type { Connector } from '../entities/connector.entity';
import type { ConnectorInstance } from '../entities/connector-instance.entity';
import { buildRunPlan } from './build-run-plan';

const SPEC: ConnectorSpec = {
  title: 'Repos and issues',
  protocol: 'http',
  base_url: 'https://api.example.test',
  operations: [
    {
      id: 'repos',
      name: 'Repositories',
      url_path: '/orgs/{{org}}/repos',
      params_fields: [{ key: 'type', label: 'Type', type: 'text' }],
    },
    {
      id: 'issues',
      name: 'Issues',
      url_path: '/repos/{{repo}}/issues',
      parent: { operation: 'repos', field: 'name', as: 'repo' },
      params_fields: [
        { key: 'state', label: 'State', type: 'text' },
        { key: 'secret_label', label: 'Hidden', type: 'text', include: false },
      ],
    },
  ],
  fields: [
    { key: 'org', label: 'Organisation', type: 'text' },
    { key: 'note', label: 'Note for yourself', type: 'text' },
  ],
} as ConnectorSpec;

function planFor(operationId: string) {
  const connector = {
    id: 'c1',
    spec: SPEC,
    schema: { fields: SPEC.fields },
    fetchUrlTemplate: '',
  } as unknown as Connector;
  const instance = { operationId, headers: {}, iterations: null } as unknown as ConnectorInstance;
  return buildRunPlan(
    connector,
    instance,
    { org: 'acme', note: 'my private note', type: 'all', state: 'open' },
    {},
  );
}

describe('buildRunPlan: which settings go upstream on their own', () => {
  it("sends an operation's own params_fields as query parameters, never the shared fields no template uses", () => {
    const plan = planFor('repos');
    expect(plan.declaredParams).toEqual(['type']);
  });

  it("keeps each operation's params_fields to itself: a parent stream does not get its child's", () => {
    const plan = planFor('issues');
    expect(plan.declaredParams).toEqual(['state']);
    expect(plan.parent?.plan.declaredParams).toEqual(['type']);
  });

  it('sends the fields of a connector without a spec, its only way to use them', () => {
    const connector = {
      id: 'c2',
      spec: null,
      schema: {
        fields: [
          { key: 'city', label: 'City' },
          { key: 'token', label: 'Token', private: true },
        ],
      },
      fetchUrlTemplate: 'https://api.example.test/weather',
    } as unknown as Connector;
    const instance = { operationId: null, headers: {}, iterations: null } as unknown as ConnectorInstance;
    expect(buildRunPlan(connector, instance, { city: 'Oslo' }, {}).declaredParams).toEqual(['city']);
  });
});
