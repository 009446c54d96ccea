import { BadRequestException, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ConnectorLifecycle } from './runs/run-end-listeners';
import { AccessGate, Caller } from '../access/access-gate.service';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { inputShapeProblem } from '../common/pipes/input-shape.pipe';
import { dropTable } from '../database/data-tables/data-table-ddl';
import { sqlOn } from '../database/sql';
import { ConnectorView, toConnectorView } from './connector-views';
import type { ConnectorSpec } from './dsl/connector-spec.types';
import { validateConnectorSpec } from './dsl/connector-spec.validator';
import { specToConnector } from './dsl/spec-to-connector';
import { Connector } from './entities/connector.entity';
import type { UploadConnectorDto } from './dto/upload-connector.dto';

const INVALID_SPEC_JSON = 'Invalid JSON in connector spec.';

export interface SeedConnector {
  title: string;
  description: string;
  price?: number;
  image?: string | null;
  source?: string;
  author?: string;
  spec: ConnectorSpec;
}

/** The connector catalogue (public connectors, and the caller's own private ones) and the DSL upload. */
@Injectable()
export class ConnectorsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly gate: AccessGate,
    private readonly lifecycle: ConnectorLifecycle,
  ) {}

  private get connectors() {
    return this.dataSource.getRepository(Connector);
  }

  /** The caller's newest instance per connector, for the Connect/Manage button. */
  private async instanceIdsOf(caller: Caller): Promise<Map<string, string>> {
    // Oldest first, so the newest instance of each connector is the one left in the map.
    const instances = await this.gate.ownedInstances(caller);
    return new Map(instances.map((instance) => [instance.connectorId, instance.id]));
  }

  /**
   * Per connector the caller uploaded, how many instances other users have of it: the
   * connections its deletion would stop (a connector nobody else connected is left out).
   */
  private async otherConnectionsOf(caller: Caller): Promise<Map<string, number>> {
    if (!caller) return new Map();
    const rows: Array<{ connector_id: string; connections: number }> = await this.dataSource.query(
      `SELECT instance.connector_id, count(*)::int AS connections
         FROM connector_instances instance
         JOIN connectors connector ON connector.id = instance.connector_id
        WHERE ${this.gate.connectorCondition('owned', 'connector', '$1')} AND instance.owner_id <> $1
        GROUP BY instance.connector_id`,
      [caller.id],
    );
    return new Map(rows.map((row) => [row.connector_id, row.connections]));
  }

  async list(userId: string | undefined): Promise<ConnectorView[]> {
    const caller = userId ? { id: userId } : undefined;
    const [connectors, instances, otherConnections] = await Promise.all([
      this.connectors
        .createQueryBuilder('connector')
        .where(this.gate.connectorCondition('visible', 'connector', ':caller'), { caller: userId ?? null })
        .orderBy('connector.title', 'ASC')
        .addOrderBy('connector.id', 'ASC')
        .getMany(),
      this.instanceIdsOf(caller),
      this.otherConnectionsOf(caller),
    ]);
    return connectors.map((connector) =>
      toConnectorView(connector, {
        userId,
        instanceId: instances.get(connector.id),
        otherConnections: otherConnections.get(connector.id),
      }),
    );
  }

  async get(caller: Caller, id: string): Promise<ConnectorView> {
    const connector = await this.gate.requireConnector(caller, id);
    const [instances, otherConnections] = await Promise.all([
      this.instanceIdsOf(caller),
      this.otherConnectionsOf(caller),
    ]);
    return toConnectorView(
      connector,
      { userId: caller?.id, instanceId: instances.get(id), otherConnections: otherConnections.get(id) },
      true,
    );
  }

  /** Validates the DSL (every problem with its path) and stores it as a connector. */
  /**
   * Title and description default to the spec's own; the uploader is the author, and the API's
   * address (its base_url's origin) the source.
   */
  async upload(
    uploader: Pick<AuthenticatedUser, 'id' | 'name'>,
    input: UploadConnectorDto,
  ): Promise<{ id: string; redirectUrl: string }> {
    const spec = parseSpec(input.spec);
    const problems = validateConnectorSpec(spec);
    if (problems.length > 0) throw new BadRequestException({ message: problems });
    const document = spec as ConnectorSpec;
    const title = input.title?.trim() || textOf(document.title);
    if (!title) throw new BadRequestException({ message: ['Title is required'] });
    if (title.length > 200)
      throw new BadRequestException({ message: ['title must be at most 200 characters'] });
    const definition = specToConnector(document);
    const connector = await this.connectors.save(
      this.connectors.create({
        ownerId: uploader.id,
        title,
        description: input.description?.trim() || textOf(document.description),
        author: uploader.name,
        source: originOf(document.base_url),
        category: input.category?.trim() || definition.category,
        price: String(input.price ?? 0),
        isPublic: input.is_public ?? true,
        image: input.image ?? null,
        fetchUrlTemplate: definition.fetchUrlTemplate,
        schema: { fields: definition.schemaFields },
        specificationSchema: { fields: definition.specificationFields },
        authFields: definition.authFields,
        spec: spec as Record<string, unknown>,
      }),
    );
    return { id: connector.id, redirectUrl: `/connector_profile/${connector.id}` };
  }

  /**
   * Deletes a connector its caller uploaded (403 for anyone else who sees it, 404 for a hidden one): every instance of it, whoever
   * connected it, goes with its table and runs, in one transaction.
   */
  async remove(caller: Caller, id: string): Promise<{ message: string }> {
    await this.dataSource.transaction(async (manager) => {
      const connector = await this.gate.requireOwnConnector(caller, id, manager);
      const sql = sqlOn(manager);
      // Every table its instances fill goes: each instance's own and those of its further streams.
      const { rows } = await sql<{ output_table_name: string }>(
        `SELECT t.output_table_name FROM connector_instance_tables t
           JOIN connector_instances i ON i.id = t.instance_id
          WHERE i.connector_id = $1
         UNION ALL
         SELECT output_table_name FROM connector_instances WHERE connector_id = $1`,
        [connector.id],
      );
      const { rows: instances } = await sql<{ id: string }>(
        `SELECT id FROM connector_instances WHERE connector_id = $1`,
        [connector.id],
      );
      await this.lifecycle.checkRemoval(
        sql,
        instances.map((instance) => instance.id),
      );
      await sql(`DELETE FROM connector_instances WHERE connector_id = $1`, [connector.id]);
      for (const row of rows) await dropTable(sql, row.output_table_name);
      await manager.delete(Connector, { id: connector.id });
    });
    return { message: 'Connector deleted.' };
  }

  /** Creates or refreshes a seeded connector, found by owner and title (idempotent). */
  async upsertSeed(ownerId: string, seed: SeedConnector): Promise<string> {
    const problems = validateConnectorSpec(seed.spec);
    if (problems.length > 0)
      throw new Error(`Seed connector "${seed.title}" is invalid: ${problems.join('; ')}`);
    const definition = specToConnector(seed.spec);
    const values = {
      ownerId,
      title: seed.title,
      description: seed.description,
      category: definition.category,
      price: String(seed.price ?? 0),
      isPublic: true,
      image: seed.image ?? null,
      source: seed.source ?? '',
      author: seed.author ?? '',
      fetchUrlTemplate: definition.fetchUrlTemplate,
      schema: { fields: definition.schemaFields },
      specificationSchema: { fields: definition.specificationFields },
      authFields: definition.authFields,
      spec: seed.spec as unknown as Record<string, unknown>,
    };
    const existing = await this.connectors.findOneBy({ ownerId, title: seed.title });
    if (existing) {
      await this.connectors.save({ ...existing, ...values });
      return existing.id;
    }
    return (await this.connectors.save(this.connectors.create(values))).id;
  }
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** Where the data comes from, as a reader would name it: the API's origin, or nothing. */
function originOf(baseUrl: unknown): string {
  try {
    return typeof baseUrl === 'string' ? new URL(baseUrl).origin : '';
  } catch {
    return '';
  }
}

export function parseSpec(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new BadRequestException(INVALID_SPEC_JSON);
  }
  // JSON text escapes past the request-wide check (\u0000, nesting): the same rule applies here.
  const problem = inputShapeProblem(parsed);
  if (problem) throw new BadRequestException(`spec: ${problem}`);
  return parsed;
}
