import { parentPort } from 'node:worker_threads';
import { encoderSession } from './parquet-encoder-session';

/** An encoder thread (see parquet-encoder-threads.ts): the writer's messages in, the file's parts out. */
parentPort!.on(
  'message',
  encoderSession((message, transfer) => parentPort!.postMessage(message, transfer)),
);
