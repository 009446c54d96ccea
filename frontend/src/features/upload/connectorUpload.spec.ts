import {
  afterUploadPath,
  checkConnectorUpload,
  EXAMPLE_SPEC,
  INVALID_SPEC_JSON,
  parseConnectorSpec,
  specProblems,
  TITLE_REQUIRED,
} from './connectorUpload';

const form = {
  title: 'Weather',
  description: ' Daily ',
  isPublic: true,
  price: '2.5',
  specText: EXAMPLE_SPEC,
};

describe('parseConnectorSpec', () => {
  it("says 'Invalid JSON in connector spec.' for text that is not JSON", () => {
    expect(parseConnectorSpec('{ title: ').error).toBe(INVALID_SPEC_JSON);
  });

  it('refuses JSON that is not an object', () => {
    expect(parseConnectorSpec('[1, 2]').error).toBe(INVALID_SPEC_JSON);
  });

  it('accepts the example spec', () => {
    expect(parseConnectorSpec(EXAMPLE_SPEC).spec).toMatchObject({ title: 'My API' });
  });
});

describe('checkConnectorUpload', () => {
  it("takes the spec's title and description when the form leaves them empty", () => {
    const spec = JSON.stringify({ title: ' Spec title ', description: 'From the spec', operations: [] });
    expect(
      checkConnectorUpload({ ...form, title: '  ', description: '', specText: spec }).payload,
    ).toMatchObject({
      title: 'Spec title',
      description: 'From the spec',
    });
  });

  it('requires a title when neither the form nor the spec has one', () => {
    const untitled = JSON.stringify({ operations: [] });
    expect(checkConnectorUpload({ ...form, title: '  ', specText: untitled }).error).toBe(TITLE_REQUIRED);
  });

  it('reports invalid spec JSON before a missing title', () => {
    expect(checkConnectorUpload({ ...form, specText: 'nope' }).error).toBe(INVALID_SPEC_JSON);
    expect(checkConnectorUpload({ ...form, title: '', specText: 'nope' }).error).toBe(INVALID_SPEC_JSON);
  });

  it('builds the payload of POST connectors/upload', () => {
    expect(checkConnectorUpload(form).payload).toMatchObject({
      title: 'Weather',
      description: 'Daily',
      is_public: true,
      price: 2.5,
    });
  });
});

describe('specProblems', () => {
  it('reads problems given as path and message', () => {
    expect(
      specProblems({ errors: [{ path: 'operations.0.method', message: 'must be GET or POST' }] }),
    ).toEqual([{ path: 'operations.0.method', message: 'must be GET or POST' }]);
  });

  it('splits the API\'s "path: message" strings', () => {
    expect(
      specProblems({ errors: ['spec/operations/0/method: must be one of: GET, POST', 'something odd'] }),
    ).toEqual([
      { path: 'spec/operations/0/method', message: 'must be one of: GET, POST' },
      { path: '', message: 'something odd' },
    ]);
  });

  it('reads problems given as a map of path to messages', () => {
    expect(specProblems({ errors: { title: ['is required'] } })).toEqual([
      { path: 'title', message: 'is required' },
    ]);
  });

  it('gives nothing for a body without errors', () => {
    expect(specProblems({ error: 'Upload failed' })).toEqual([]);
  });
});

describe('afterUploadPath', () => {
  it('follows the redirectUrl as an in-app path, relative or absolute on the same origin', () => {
    expect(afterUploadPath({ redirectUrl: '/connector_profile/c1' }, 'https://x.test')).toBe(
      '/connector_profile/c1',
    );
    expect(afterUploadPath({ redirectUrl: 'https://x.test/connector_profile/c1' }, 'https://x.test')).toBe(
      '/connector_profile/c1',
    );
  });

  it('falls back to the new connector when the redirect points elsewhere or is missing', () => {
    expect(afterUploadPath({ id: 'c1', redirectUrl: 'https://evil.test/' }, 'https://x.test')).toBe(
      '/connector_profile/c1',
    );
    expect(afterUploadPath({ id: 'c1' }, 'https://x.test')).toBe('/connector_profile/c1');
  });
});
