import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AccessGate } from '../access/access-gate.service';
import type { AuthenticatedUser } from '../common/decorators/current-user.decorator';
import { expectColumns } from './ingest/csv-storage-engine';

/**
 * Lets a request on `:id` through only for the dataset's owner (the AccessGate's 'own'), before
 * anything of the body is read: a refresh's file is never loaded for someone else, and is loaded
 * straight into the dataset's columns, read in the dialect kept with it. After SessionGuard; the handler checks again, under a
 * lock, inside its transaction.
 */
@Injectable()
export class OwnDatasetGuard implements CanActivate {
  constructor(private readonly gate: AccessGate) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request>();
    const { asset } = await this.gate.requireDataset(
      request.user as AuthenticatedUser,
      String(request.params.id),
      'own',
    );
    expectColumns(request, asset.columns, asset.csvDialect);
    return true;
  }
}
