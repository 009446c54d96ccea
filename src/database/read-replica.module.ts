import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ReadReplica } from './read-replica.service';
import { ReadPositionInterceptor } from './read-position.interceptor';

/** Read routing for every module: inject ReadReplica and read from `forReads()`. */
@Global()
@Module({
  providers: [ReadReplica, { provide: APP_INTERCEPTOR, useClass: ReadPositionInterceptor }],
  exports: [ReadReplica],
})
export class ReadReplicaModule {}
