import { parentPort } from 'node:worker_threads';
import { codecReady } from './parquet-compression';
import { encoderSession } from './parquet-encoder-session';

/**
 * An encoder thread (see parquet-encoder-threads.ts): the writer's messages in, the file's parts
 * out. zstd's module is loaded first (the session is synchronous); the messages sent meanwhile
 * wait in the port, in order, until it listens. Should it fail to load, the thread listens all
 * the same: only a zstd file then fails (its first page cannot be compressed), not every file.
 */
void codecReady('zstd')
  .catch(() => undefined)
  .then(() =>
    parentPort!.on(
      'message',
      encoderSession((message, transfer) => parentPort!.postMessage(message, transfer)),
    ),
  );
