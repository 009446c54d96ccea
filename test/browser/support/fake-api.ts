import { FakeUpstream, sendJson, startFakeUpstream } from '../../connectors/support/fake-upstream';

export const FAKE_TOKEN = 'harbour-secret-token';

/** Readings the fake harbour API returns for a station; water levels in the unit asked for. */
export function harbourReadings(station: string, unit: string, depth: number) {
  return [1, 2, 3].map((hour) => ({
    station,
    hour,
    depth_m: depth,
    level: unit === 'in' ? Math.round(hour * 39.37) / 100 : hour * 100,
    unit,
  }));
}

/** The stations GET /stations lists. */
export const HARBOUR_STATIONS = ['north', 'south'];

/**
 * A harbour sensor API on loopback (GET /stations lists the stations): GET /readings?station=&unit=&depth= answers `{ data: [...] }` and
 * insists on the X-Token header, so a run only succeeds with the private field's value. It answers
 * after `delayMs`, slow enough for the screen to show a run in progress.
 */
export function startHarbourApi(delayMs = 0): Promise<FakeUpstream> {
  return startFakeUpstream(async (request, response) => {
    await new Promise((wait) => setTimeout(wait, delayMs));
    if (request.url.pathname === '/stations')
      return sendJson(response, { data: HARBOUR_STATIONS.map((name) => ({ name })) });
    if (request.url.pathname !== '/readings') return sendJson(response, { error: 'not found' }, 404);
    if (request.headers['x-token'] !== FAKE_TOKEN) return sendJson(response, { error: 'bad token' }, 401);
    const station = request.url.searchParams.get('station') ?? 'north';
    const unit = request.url.searchParams.get('unit') || 'cm';
    const depth = Number(request.url.searchParams.get('depth') ?? 0);
    return sendJson(response, { data: harbourReadings(station, unit, depth) });
  });
}

/** The harbour spec with a second operation (stream): the list of stations. */
export function harbourTwoStreamSpec(origin: string) {
  const spec = harbourSpec(origin);
  return {
    ...spec,
    title: 'Port Sensors and Stations',
    operations: [
      ...spec.operations,
      {
        id: 'stations',
        name: 'Stations',
        method: 'GET',
        url_path: '/stations',
        response_path: 'data',
        pagination: { type: 'none' },
      },
    ],
  };
}

/** The connector spec (upload DSL) for the harbour API: a condition, a group and a private field. */
export function harbourSpec(origin: string) {
  return {
    title: 'Harbour Sensors',
    description: 'Hourly water levels from harbour sensors.',
    protocol: 'http',
    base_url: origin,
    auth: { type: 'none' },
    operations: [
      {
        id: 'readings',
        name: 'Readings',
        method: 'GET',
        url_path: '/readings',
        headers: { 'X-Token': '{{token}}' },
        query: { station: '{{station}}', unit: '{{unit}}', depth: '{{filters.depth}}' },
        response_path: 'data',
        pagination: { type: 'none' },
      },
    ],
    fields: [
      {
        key: 'station',
        label: 'Station',
        type: 'select',
        options: ['north', 'south'],
        required: true,
      },
      {
        key: 'unit',
        label: 'Unit',
        type: 'select',
        options: ['cm', 'in'],
        conditions: { station: 'south' },
      },
      {
        key: 'filters',
        label: 'Filters',
        type: 'group',
        fields: [{ key: 'depth', label: 'Depth (m)', type: 'number' }],
      },
      { key: 'token', label: 'Access token', type: 'text', private: true, required: true },
    ],
  };
}
