'use strict';
/*
 * The Parquet encoder's thread (plain JavaScript, so the same file runs from the sources in tests
 * and from the build): receives a download's row groups as Arrow IPC, encodes them with
 * parquet-wasm and posts the file's bytes back, while the main thread reads and builds the next
 * group. One download at a time; the thread is reused for the next. Protocol, main → here:
 * `start` (writer settings), `group` (IPC bytes), `end`, `ack` (a posted chunk was taken);
 * here → main: `taken` (a group went into the encoder), `bytes`, `done`, `error`.
 */
const { parentPort } = require('node:worker_threads');
const parquet = require('parquet-wasm');

/** Messages of the current download not yet asked for, and who waits for the next one. */
let groups = [];
let groupWaiter;
let acks = 0;
let ackWaiter;

function nextGroup() {
  if (groups.length > 0) return Promise.resolve(groups.shift());
  return new Promise((resolve) => (groupWaiter = resolve));
}

function acked() {
  if (acks > 0) {
    acks--;
    return Promise.resolve();
  }
  return new Promise((resolve) => (ackWaiter = resolve));
}

/** Row groups in the encoder's own memory, one at a time as it asks for them. */
function recordBatches() {
  let table;
  return new ReadableStream(
    {
      async pull(controller) {
        // The previous group has been taken by the encoder: its IPC copy can go.
        table?.free();
        table = undefined;
        const ipc = await nextGroup();
        if (ipc === undefined) return controller.close();
        table = parquet.Table.fromIPCStream(ipc);
        controller.enqueue(table.recordBatch(0));
        parentPort.postMessage({ type: 'taken' });
      },
      cancel() {
        table?.free();
      },
    },
    { highWaterMark: 0 },
  );
}

async function encode(settings) {
  const properties = new parquet.WriterPropertiesBuilder()
    .setCompression(parquet.Compression.SNAPPY)
    .setMaxRowGroupSize(settings.rowsPerGroup)
    .setCreatedBy(settings.createdBy)
    .build();
  const output = await parquet.transformParquetStream(recordBatches(), properties);
  for await (const bytes of output) {
    // Moved, not copied, when the chunk has its memory to itself.
    const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
    parentPort.postMessage({ type: 'bytes', bytes }, owned ? [bytes.buffer] : []);
    // Back-pressure: the next chunk is encoded once the client has taken this one.
    await acked();
  }
  parentPort.postMessage({ type: 'done' });
}

parentPort.on('message', (message) => {
  switch (message.type) {
    case 'start':
      groups = [];
      acks = 0;
      encode(message.settings).catch((error) =>
        parentPort.postMessage({
          type: 'error',
          message: error instanceof Error ? error.message : String(error),
        }),
      );
      break;
    case 'group':
    case 'end': {
      const ipc = message.type === 'group' ? message.ipc : undefined;
      if (groupWaiter) {
        const resolve = groupWaiter;
        groupWaiter = undefined;
        resolve(ipc);
      } else groups.push(ipc);
      break;
    }
    case 'ack':
      if (ackWaiter) {
        const resolve = ackWaiter;
        ackWaiter = undefined;
        resolve();
      } else acks++;
      break;
  }
});
