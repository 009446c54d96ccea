import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { ReadReplica } from './read-replica.service';
import { ReadYourWritesInterceptor } from './read-your-writes.interceptor';

/** Read routing for every module: inject ReadReplica and read from `forReads()`. */
@Global()
@Module({
  providers: [ReadReplica, { provide: APP_INTERCEPTOR, useClass: ReadYourWritesInterceptor }],
  exports: [ReadReplica],
})
export class ReadReplicaModule {}
